#!/usr/bin/env bash
# Write the box's voice clips: one WAV per line of phrases.tsv, spoken by
# Debian's espeak-ng (installed with apt-get if missing). The firmware and
# the SD image carry the clips; the box plays them through its PCM path.
#
#   image/voice/make-voice.sh OUTDIR
#
# Idempotent: OUTDIR/.stamp holds a hash of phrases.tsv, the voice settings
# and espeak-ng's version; while it matches, nothing is rewritten.
set -euo pipefail

die() { echo "make-voice.sh: error: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: $0 OUTDIR"
OUT=$1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
TABLE=$HERE/phrases.tsv
# A clear, slightly slow voice: calls carry across a track at this speed.
VOICE=en-us
SPEED=150
PITCH=45

if ! command -v espeak-ng >/dev/null; then
    echo "make-voice.sh: installing espeak-ng"
    SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends espeak-ng >/dev/null
fi
VERSION=$(espeak-ng --version 2>/dev/null | head -n1)
STAMP=$( { cat "$TABLE"; echo "$VOICE $SPEED $PITCH $VERSION"; } | sha256sum | cut -c1-16)
if [ -f "$OUT/.stamp" ] && [ "$(cat "$OUT/.stamp")" = "$STAMP" ]; then
    echo "make-voice.sh: $OUT is up to date"
    exit 0
fi

mkdir -p "$OUT"
rm -f "$OUT"/*.wav "$OUT/.stamp"
count=0
while IFS=$'\t' read -r file text; do
    case "$file" in ''|'#'*) continue ;; esac
    [ -n "$text" ] || die "phrases.tsv: '$file' has no text (expected: file<TAB>text)"
    espeak-ng -v "$VOICE" -s "$SPEED" -p "$PITCH" -w "$OUT/$file.wav.part" "$text"
    mv "$OUT/$file.wav.part" "$OUT/$file.wav"
    count=$((count + 1))
done <"$TABLE"
echo "$STAMP" >"$OUT/.stamp"
echo "make-voice.sh: $count clips in $OUT ($(du -sh "$OUT" | cut -f1), $VERSION)"
