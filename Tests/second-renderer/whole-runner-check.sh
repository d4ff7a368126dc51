#!/usr/bin/env bash
# Whole runners from the renderer that shares nothing with GateSim.
#
#   Tests/second-renderer/whole-runner-check.sh TS_GATE [DIR]
#
# Renders twelve runners with head, arms and legs (render.py, plain
# profile, seed 11: 30-240 fps, flying, accelerating and standing starts,
# both directions), replays them with `ts-gate replay` in both modes, and
# fails unless every runner is timed, nothing false is reported, and every
# crossing lies within 20 ms of the renderer's truth. A guard against the
# failures of segmentation that cost more than a frame: a hand or a head
# joined to the torso (40-50 ms early). Measured: before a body's gaps were
# filled only where something other than the scene lies in them, two
# misses and errors of -45, -43 and +24 ms; after, worst 14.2 ms.
# The accuracy table of whole runners is `make accuracy-second`.
set -euo pipefail
bin=${1:?usage: whole-runner-check.sh TS_GATE [DIR]}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${2:-build/second-renderer/whole-runners}
python3 -c 'import numpy' 2>/dev/null || python3 -m pip install --quiet numpy
rm -rf "$dir"
python3 "$here/render.py" "$dir" --count 12 --seed 11 --jobs 2 >/dev/null
status=0
python3 "$here/evaluate.py" "$bin" "$dir" --jobs 2 --require-within 20 --require-timed 1.0 | tail -1 || status=$?
# 1.4 GB of Y4M: rendered again next time.
rm -rf "$dir"
exit $status
