#!/usr/bin/env bash
# The time base against a renderer that shares nothing with GateSim.
#
#   Tests/second-renderer/time-base-check.sh TS_GATE [DIR]
#
# Renders eight clips of a lone torso (no head or limbs: nothing but the
# torso can be timed) at 30-240 fps with exposure, rolling shutter and both
# directions (render.py --torso-only), replays them with `ts-gate replay`
# in both modes, and fails unless every crossing timed is within 0.25 ms of
# the renderer's truth and at least 6 of 8 are timed (a lone torso may be
# too short to be a person). Measured with the detector broken on purpose:
# rows stamped at the end of their exposure instead of its middle made the
# worst error 2.97 ms; the rolling shutter running bottom to top, 1.53 ms.
# The accuracy of whole runners is `make accuracy-second`, not this.
set -euo pipefail
bin=${1:?usage: time-base-check.sh TS_GATE [DIR]}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${2:-build/second-renderer/torso-only}
python3 -c 'import numpy' 2>/dev/null || python3 -m pip install --quiet numpy
rm -rf "$dir"
python3 "$here/render.py" "$dir" --count 8 --seed 5 --torso-only --jobs 2 >/dev/null
python3 "$here/evaluate.py" "$bin" "$dir" --jobs 2 --require-within 0.25 --require-timed 0.75 | tail -1
