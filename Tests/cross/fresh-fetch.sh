#!/usr/bin/env bash
# The download steps of `make simulate` and `make test` as a new machine runs
# them: an empty cache in a temporary HOME, what the archive offers today.
# Fetches and unpacks the VM rig's kernel (image, headers, kbuild, source,
# v4l2loopback), builds its two out-of-tree modules against them (so the
# versions chosen fit together), builds the arm64 sysroot, and finds a
# Python with numpy. Removes the temporary HOME when done.
#
#   Tests/cross/fresh-fetch.sh
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d /tmp/ts-gate-fresh.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
say() { echo "fresh-fetch.sh: $*"; }
unset TS_GATE_CACHE TS_GATE_KERNEL_VERSION

start=$(date +%s)
say "empty cache in HOME=$tmp"
HOME=$tmp "$here/Tests/vm/fetch-kernel.sh"
HOME=$tmp "$here/Tests/vm/build-gpio-sim.sh"
HOME=$tmp "$here/Tests/vm/build-v4l2loopback.sh"
HOME=$tmp "$here/image/sysroot.sh" aarch64 "$tmp/sysroot-aarch64"
HOME=$tmp "$here/Tests/second-renderer/numpy-python.sh" >/dev/null
say "cache: $(du -sh "$tmp/.cache/ts-gate" | cut -f1), sysroot $(du -sh "$tmp/sysroot-aarch64" | cut -f1)"
say "PASS in $(( $(date +%s) - start )) s"
