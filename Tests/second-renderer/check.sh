#!/usr/bin/env bash
# `make test-second`: ts-gate against a renderer that shares nothing with
# GateSim, in two checks, each a set rendered afresh into build/ and
# replayed with `ts-gate replay` in both modes (evaluate.py's
# --require-within and --require-timed; nothing false may be reported).
#
#   Tests/second-renderer/check.sh TS_GATE
#
# 1. The time base: eight clips of a lone torso (no head or limbs: nothing
#    but the torso can be timed) at 30-240 fps with exposure, rolling
#    shutter and both directions (render.py --torso-only); every crossing
#    timed within 0.25 ms of the truth, at least 6 of 8 timed (a lone
#    torso may be too short to be a person). Measured with the detector
#    broken on purpose: rows stamped at the end of their exposure instead
#    of its middle made the worst error 2.97 ms; the rolling shutter
#    running bottom to top, 1.53 ms.
# 2. Whole runners: twelve with head, arms and legs (plain profile, seed
#    11: flying, accelerating and standing starts); every one timed,
#    within 20 ms. A guard against failures of segmentation that cost more
#    than a frame: a hand or a head joined to the torso (40-50 ms early).
#    Measured: before a body's gaps were filled only where something other
#    than the scene lies in them, two misses and errors of -45, -43 and
#    +24 ms; after, worst 14.2 ms.
# The accuracy tables of whole runners are `make accuracy-second`.
set -euo pipefail
bin=${1:?usage: check.sh TS_GATE}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
python3 -c 'import numpy' 2>/dev/null || python3 -m pip install --quiet numpy

# check DIR WITHIN TIMED RENDER-ARGS...: renders into DIR, replays, removes
# DIR (the whole runners are 1.4 GB of Y4M), fails as evaluate.py does.
check() {
    local dir=$1 within=$2 timed=$3 status=0
    shift 3
    rm -rf "$dir"
    python3 "$here/render.py" "$dir" --jobs 2 "$@" >/dev/null || return 1
    python3 "$here/evaluate.py" "$bin" "$dir" --jobs 2 --require-within "$within" --require-timed "$timed" \
        | tail -1 || status=$?
    rm -rf "$dir"
    return $status
}

status=0
check build/second-renderer/torso-only 0.25 0.75 --count 8 --seed 5 --torso-only || status=1
check build/second-renderer/whole-runners 20 1.0 --count 12 --seed 11 || status=1
exit $status
