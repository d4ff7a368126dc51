#!/usr/bin/env bash
# Encode a raw GREY clip (`ts-gate render ... --raw`) as the MJPEG stream a
# UVC webcam sends: each frame a baseline JPEG, YCbCr 4:2:2, quality 90, as
# cjpeg makes it. Each frame is padded with zeros to one fixed size (JPEG
# decoders stop at the EOI marker), so that the guest can write the stream
# into v4l2loopback one frame per write() with busybox dd; that size is
# written to OUT.frame-bytes.
#
#   Tests/vm/mjpeg-clip.sh IN.raw WIDTH HEIGHT OUT.mjpeg
set -euo pipefail
die() { echo "mjpeg-clip.sh: error: $*" >&2; exit 1; }
[ $# -eq 4 ] || die "usage: $0 IN.raw WIDTH HEIGHT OUT.mjpeg"
IN=$1 W=$2 H=$3 OUT=$4
[ -f "$IN" ] || die "no $IN"
command -v cjpeg >/dev/null || die "cjpeg not found (apt-get install libjpeg-turbo-progs)"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# perl (Debian's perl-base is essential): split the frames, grey to RGB PPM,
# cjpeg each, then pad every JPEG to the largest one rounded up to 4 KiB.
perl -e '
    use strict; use warnings;
    my ($in, $w, $h, $out, $tmp) = @ARGV;
    my $bytes = $w * $h;
    open(my $f, "<:raw", $in) or die "cannot read $in: $!\n";
    my (@jpegs, $frame, $max);
    my @rgb_of = map { chr($_) x 3 } 0 .. 255;
    $max = 0;
    while ((my $n = read($f, $frame, $bytes)) > 0) {
        $n == $bytes or die "$in: last frame has $n of $bytes bytes\n";
        my $rgb = join("", @rgb_of[unpack("C*", $frame)]);
        open(my $c, "|-", "cjpeg -quality 90 -sample 2x1 -outfile $tmp/f.jpg") or die "cjpeg: $!\n";
        binmode $c;
        print $c "P6\n$w $h\n255\n", $rgb;
        close($c) or die "cjpeg failed on frame " . scalar(@jpegs) . "\n";
        open(my $j, "<:raw", "$tmp/f.jpg") or die; local $/; my $jpeg = <$j>; close $j;
        push @jpegs, $jpeg;
        $max = length($jpeg) if length($jpeg) > $max;
    }
    @jpegs or die "$in holds no frames\n";
    my $pad = int(($max + 4095) / 4096) * 4096;
    open(my $o, ">:raw", $out) or die "cannot write $out: $!\n";
    print $o $_, "\0" x ($pad - length($_)) for @jpegs;
    close($o) or die;
    open(my $s, ">", "$out.frame-bytes") or die; print $s "$pad\n"; close $s;
    printf STDERR "mjpeg-clip.sh: %d frames, JPEGs of %d..%d bytes, padded to %d\n",
        scalar(@jpegs), (sort { $a <=> $b } map { length } @jpegs)[0], $max, $pad;
' "$IN" "$W" "$H" "$OUT" "$TMP"
