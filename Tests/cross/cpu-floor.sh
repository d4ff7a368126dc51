#!/usr/bin/env bash
# The x86_64 firmware's CPU floor (x86-64-v2, Sources/GateDevices/System/
# CPUFloor.swift), under qemu-x86_64-static's CPU models: on a Nehalem it
# runs; on a Penryn (SSE4.1, no SSE4.2 or POPCNT) it refuses at once, naming
# what the CPU lacks, instead of stopping on an SSE4 instruction (SIGILL).
#
#   Tests/cross/cpu-floor.sh FIRMWARE_BINARY
set -euo pipefail

die() { echo "cpu-floor: FAIL: $*" >&2; exit 1; }
say() { echo "cpu-floor: $*"; }

[ $# -eq 1 ] || die "usage: $0 FIRMWARE_BINARY"
FIRMWARE=$1
[ -x "$FIRMWARE" ] || die "no firmware at $FIRMWARE (run image/firmware.sh x86_64)"
command -v qemu-x86_64-static >/dev/null || die "qemu-x86_64-static missing (apt-get install qemu-user-static)"

out=$(qemu-x86_64-static -cpu Nehalem "$FIRMWARE" --version) || die "on a Nehalem: exit status $?"
case "$out" in
    "ts-gate "*) ;;
    *) die "on a Nehalem: printed '$out'" ;;
esac
say "Nehalem: runs ($out)"

status=0
err=$(qemu-x86_64-static -cpu Penryn "$FIRMWARE" --version 2>&1 >/dev/null) || status=$?
[ "$status" -eq 1 ] || die "on a Penryn: exit status $status (expected 1: refused)"
case "$err" in
    *"needs an x86-64-v2 CPU"*"lacks sse4_2 popcnt") ;;
    *) die "on a Penryn: said '$err'" ;;
esac
say "Penryn: refused ($err)"
say "PASS"
