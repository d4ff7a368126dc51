#!/usr/bin/env bash
# Boots a board's image (build/image/BOARD.latest, from `make image`) in
# qemu under TCG and reads the verdict its test unit prints on the serial
# console (Tests/image/verdict.sh: read-only root, data partition writable
# and grown, selftest naming what the VM lacks, the service active on the
# VM rig's devices, a SIGSTOPped loop killed by the watchdog and restarted).
#
#   Tests/image/boot-test.sh [BOARD]      (generic-x86)
#
# The image stays pristine: the VM writes to a qcow2 overlay, 512 MiB larger
# than the image so the data partition has room to grow. Kernel and initrd
# are read out of the image's FAT partition (mtools) and given to qemu with
# the image's own command line plus ts-gate.test. A second disk carries what
# the image lacks on purpose: gpio-sim.ko (built by Tests/vm for the same
# Debian kernel) and the VM rig's board file. Exits 0 only on
# "VERDICT image PASS"; the log is build/image/test/BOARD.log.
#
# Environment: TS_GATE_IMAGE_TIMEOUT, host-side limit in seconds (600).
set -euo pipefail
# shellcheck source=../../image/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../image/lib.sh"

BOARD=${1:-generic-x86}
LATEST=$OUT_DIR/$BOARD.latest
[ -f "$LATEST" ] || die "no $LATEST: make image BOARD=$BOARD first"
# shellcheck disable=SC1090
. "$LATEST"
[ -f "$IMAGE" ] || die "$LATEST names $IMAGE, which is gone: make image BOARD=$BOARD"
[ "$BOARD" = generic-x86 ] || die "only generic-x86 boots here so far"

ensure_packages qemu-system-x86 qemu-utils mtools dosfstools
export MTOOLS_SKIP_CHECK=1

# gpio-sim for the image's kernel: the VM rig's kernel must be the same one.
"$REPO_ROOT/Tests/vm/build-gpio-sim.sh" >&2
# shellcheck disable=SC1091
. "${TS_GATE_CACHE:-$HOME/.cache/ts-gate}/vm/kernel.env"
[ "$KVER" = "$KERNEL_VERSION" ] || die "the image's kernel is $KERNEL_VERSION, the VM rig's $KVER: gpio-sim.ko would not load (TS_GATE_KERNEL_VERSION pins the rig's; or rebuild the image)"
KO=${TS_GATE_CACHE:-$HOME/.cache/ts-gate}/vm/kernels/$KVER/gpio-sim/gpio-sim.ko

T=$OUT_DIR/test
mkdir -p "$T"
rm -f "$T/$BOARD".*
mcopy -n -i "$IMAGE@@$BOOT_OFFSET" ::/vmlinuz "$T/$BOARD.vmlinuz"
mcopy -n -i "$IMAGE@@$BOOT_OFFSET" ::/initrd.img "$T/$BOARD.initrd"
mkfs.vfat -C -n TESTDISK "$T/$BOARD.testdisk" 8192 >/dev/null
mcopy -i "$T/$BOARD.testdisk" "$KO" "$REPO_ROOT/board/vm-rig/board.conf" ::/
qemu-img create -q -f qcow2 -F raw -b "$IMAGE" "$T/$BOARD.qcow2" $(( $(stat -c %s "$IMAGE") + 512 * 1048576 ))

LOG=$T/$BOARD.log
TIMEOUT=${TS_GATE_IMAGE_TIMEOUT:-600}
# /dev/kvm is there but nested KVM hangs on these machines: TCG. No NIC.
QEMU=(qemu-system-x86_64 -M q35 -accel tcg -cpu max -smp 1 -m 1024 -display none -no-reboot -nic none
      -drive "file=$T/$BOARD.qcow2,if=virtio,format=qcow2"
      -drive "file=$T/$BOARD.testdisk,if=virtio,format=raw,readonly=on"
      -kernel "$T/$BOARD.vmlinuz" -initrd "$T/$BOARD.initrd"
      -append "$KERNEL_CMDLINE ts-gate.test"
      -serial "file:$LOG")
log "booting $(basename "$IMAGE") (timeout ${TIMEOUT}s), serial log $LOG"
start=$(date +%s)
set +e
timeout --kill-after=5 "$TIMEOUT" "${QEMU[@]}" </dev/null
qrc=$?
set -e
secs=$(( $(date +%s) - start ))
tr -d '\r' <"$LOG" | grep -a 'image-test: ' | sed 's/^.*image-test: //' >"$T/$BOARD.verdict" || true
cat "$T/$BOARD.verdict" >&2
if grep -q '^VERDICT image PASS' "$T/$BOARD.verdict"; then
    log "PASS $BOARD in ${secs}s"
    exit 0
fi
verdict=$(grep -m1 '^VERDICT image' "$T/$BOARD.verdict" || true)
log "FAIL $BOARD in ${secs}s: ${verdict:-no verdict (qemu exit $qrc)}"
exit 1
