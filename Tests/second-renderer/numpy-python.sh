#!/usr/bin/env bash
# Prints a Python 3 interpreter that imports numpy, installing numpy if none
# does: the `python3` on PATH with pip (any version PyPI serves), else Debian's
# python3-numpy for /usr/bin/python3 (a Debian 12 system Python refuses pip
# installs outside a venv, PEP 668). Says what it installed on stderr.
#
#   PY=$(Tests/second-renderer/numpy-python.sh)
set -euo pipefail
say() { echo "numpy-python.sh: $*" >&2; }
has_numpy() { command -v "$1" >/dev/null && "$1" -c 'import numpy' 2>/dev/null; }

for py in python3 /usr/bin/python3; do
    has_numpy "$py" && { command -v "$py"; exit 0; }
done
if command -v python3 >/dev/null && python3 -m pip --version >/dev/null 2>&1; then
    say "installing numpy with $(command -v python3) -m pip"
    python3 -m pip install --quiet numpy >&2 || say "pip could not install numpy"
    has_numpy python3 && { command -v python3; exit 0; }
fi
say "installing Debian's python3-numpy"
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3-numpy >&2 || {
    $SUDO apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3-numpy >&2
}
has_numpy /usr/bin/python3 || { say "error: neither pip nor apt-get gave a Python that imports numpy"; exit 1; }
echo /usr/bin/python3
