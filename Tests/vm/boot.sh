#!/usr/bin/env bash
# Build the initramfs for scenario NAME and boot it under qemu (TCG).
#
#   Tests/vm/boot.sh NAME [EXTRA_FILES...]
#
# EXTRA_FILES are copied into the guest's /bin (e.g. a static ts-gate test
# binary). The serial console goes to stdout and to build/vm/NAME.log (CRs
# stripped). Exits 0 only if the log has the line "VERDICT NAME PASS".
#
# Environment:
#   TS_GATE_VM_TIMEOUT    host-side limit for the whole boot, seconds (120);
#                         the guest gives its scenario 20 s less
#   TS_GATE_VM_APPEND     extra kernel command line (e.g. "loglevel=7")
#   TS_GATE_CACHE         cache root (default ~/.cache/ts-gate)
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 NAME [EXTRA_FILES...]"
NAME=$1
shift

mkdir -p "$BUILD_DIR"
INITRD=$BUILD_DIR/$NAME.cpio.gz
LOG=$BUILD_DIR/$NAME.log
"$VM_DIR/make-initramfs.sh" "$NAME" "$INITRD" "$@"
load_kernel_env

TIMEOUT=${TS_GATE_VM_TIMEOUT:-120}
if ! [[ $TIMEOUT =~ ^[0-9]+$ ]] || [ "$TIMEOUT" -lt 30 ]; then die "TS_GATE_VM_TIMEOUT must be >= 30"; fi
GUEST_TIMEOUT=$((TIMEOUT - 20))
APPEND="console=ttyS0 quiet panic=-1 rig.test=$NAME rig.timeout=$GUEST_TIMEOUT ${TS_GATE_VM_APPEND:-}"

# /dev/kvm exists here but nested KVM hangs: TCG only. No NIC: the guest
# needs no network.
QEMU=(qemu-system-x86_64 -accel tcg -cpu max -smp 1 -m 512 -nographic -no-reboot
      -nic none
      -kernel "$KROOT/boot/vmlinuz-$KVER" -initrd "$INITRD" -append "$APPEND")

log "booting $KVER, scenario $NAME (timeout ${TIMEOUT}s), log $LOG"
start=$(date +%s.%N)
set +e
timeout --kill-after=5 "$TIMEOUT" "${QEMU[@]}" </dev/null 2>&1 | tr -d '\r' | tee "$LOG"
qrc=${PIPESTATUS[0]}
set -e
secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')

if grep -qx "VERDICT $NAME PASS" "$LOG"; then
    log "PASS $NAME (${secs}s)"
    exit 0
fi
verdict=$(grep -m1 "^VERDICT $NAME " "$LOG" || true)
if [ -n "$verdict" ]; then
    log "FAIL $NAME (${secs}s): $verdict"
elif [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
    log "FAIL $NAME (${secs}s): no verdict, qemu killed after ${TIMEOUT}s"
else
    log "FAIL $NAME (${secs}s): no verdict, qemu exit status $qrc"
fi
exit 1
