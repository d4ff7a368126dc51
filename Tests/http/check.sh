#!/usr/bin/env bash
# The coach's page in a real browser (make test-http): installs Debian's
# chromium, its chromedriver and python3-selenium when missing (about
# 250 MB, once), then drives the page of a simulated session with
# coach-page.py; its screenshot lands in OUTDIR/coach-page.png.
#
#   Tests/http/check.sh TS_GATE OUTDIR
set -euo pipefail

die() { echo "check.sh: error: $*" >&2; exit 1; }
[ $# -eq 2 ] || die "usage: $0 TS_GATE OUTDIR"
TS_GATE=$1
OUT=$2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
[ -x "$TS_GATE" ] || die "$TS_GATE is not an executable (make build)"

PACKAGES="chromium chromium-driver python3-selenium"
missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "check.sh: installing$missing"
    SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
[ -x /usr/bin/chromedriver ] || die "no /usr/bin/chromedriver after installing chromium-driver"
# Debian's python has the selenium package; a pyenv or venv python on PATH may not.
rm -rf "$OUT"
mkdir -p "$OUT"
/usr/bin/python3 "$HERE/coach-page.py" "$TS_GATE" "$OUT" --runs 6 --load-seconds 8 2>&1 | tee "$OUT/check.log"
grep -q '^RESULT PASS$' "$OUT/check.log" || die "the coach's page failed its checks (log: $OUT/check.log)"
