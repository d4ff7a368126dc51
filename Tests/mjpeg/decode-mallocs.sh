#!/usr/bin/env bash
# House rule 3 for MJPEG cameras: decoding a frame allocates nothing once
# the stream runs. libjpeg takes each frame's working memory from malloc;
# the firmware's link trim (Sources/CFirmwareLinkTrim/link-trim.c) keeps and
# reuses it. This links the host's static libv4lconvert and libjpeg (the
# x86_64 firmware's own) into a small decoder (decode-mallocs.c) with and
# without the trim, decodes a 640x480 webcam-style JPEG (cjpeg, 4:2:2) 10
# and 110 times, and checks that with the trim the 100 extra frames allocate
# nothing and that the frames come out byte for byte the same.
#
#   Tests/mjpeg/decode-mallocs.sh
set -euo pipefail
die() { echo "decode-mallocs: FAIL: $*" >&2; exit 1; }
say() { echo "decode-mallocs: $*"; }
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
command -v cjpeg >/dev/null || die "cjpeg missing (apt-get install libjpeg-turbo-progs)"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# A frame with structure in it: a gradient, a dark upright, a thin bright line.
perl -e 'print "P6\n640 480\n255\n";
         for my $y (0..479) { for my $x (0..639) {
             my $v = 200 - int($y * 120 / 480);
             $v = 40 if $x >= 280 && $x < 352 && $y >= 120 && $y < 400;
             $v = 250 if $x >= 500 && $x < 508;
             print chr($v) x 3 } }' >"$TMP/frame.ppm"
cjpeg -quality 90 -sample 2x1 -outfile "$TMP/frame.jpg" "$TMP/frame.ppm"

WRAP=-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
LIBS=(-static -lv4lconvert -ljpeg -lm)
# The libraries' own static-link warnings (dlopen, getpwuid_r) are expected.
gcc -O2 -Wall -o "$TMP/plain" "$HERE/decode-mallocs.c" "$WRAP" "${LIBS[@]}" 2>"$TMP/plain.log" ||
    { cat "$TMP/plain.log" >&2; die "could not build the decoder"; }
gcc -O2 -Wall -DGATE_FIRMWARE_LINK_TRIM -o "$TMP/trimmed" "$HERE/decode-mallocs.c" \
    "$REPO/Sources/CFirmwareLinkTrim/link-trim.c" "$WRAP" "${LIBS[@]}" 2>"$TMP/trimmed.log" ||
    { cat "$TMP/trimmed.log" >&2; die "could not build the decoder with the link trim"; }

read -r _ plain10 _ plain_sum < <("$TMP/plain" "$TMP/frame.jpg" 640 480 10)
read -r _ plain110 _ _ < <("$TMP/plain" "$TMP/frame.jpg" 640 480 110)
read -r _ trim10 _ trim_sum < <("$TMP/trimmed" "$TMP/frame.jpg" 640 480 10)
read -r _ trim110 _ _ < <("$TMP/trimmed" "$TMP/frame.jpg" 640 480 110)
say "libraries as shipped: $plain10 allocations for 10 frames, $plain110 for 110 ($(( (plain110 - plain10) / 100 )) a frame)"
say "with the link trim:   $trim10 allocations for 10 frames, $trim110 for 110"
[ "$trim110" = "$trim10" ] || die "with the link trim, 100 more frames made $(( trim110 - trim10 )) allocations"
[ "$trim_sum" = "$plain_sum" ] || die "the link trim changed the decoded frame ($trim_sum, not $plain_sum)"
say "PASS"
