#!/usr/bin/env bash
# Boots a board's image (build/image/BOARD.latest, from `make image`) in
# qemu under TCG and reads the verdict its test unit prints on the serial
# console (Tests/image/verdict.sh: read-only root, data partition writable
# and grown, selftest naming what the VM lacks, the service active on the
# VM rig's devices, a SIGSTOPped loop killed by the watchdog and restarted).
#
#   Tests/image/boot-test.sh [BOARD]      (generic-x86; rpi4 on qemu's virt machine)
#
# The image stays pristine: the VM writes to a qcow2 overlay, 512 MiB larger
# than the image so the data partition has room to grow. Kernel and initrd
# are read out of the image's FAT partition (mtools) and given to qemu with
# the image's own command line plus ts-gate.test. A second disk carries what
# the image lacks on purpose: gpio-sim.ko (built by Tests/vm for the same
# Debian kernel; on arm64 cross-built, with i2c-stub.ko) and the VM rig's
# board file. Exits 0 only on "VERDICT image PASS"; the log is
# build/image/test/BOARD.log. Each board reads gate.position from an edited
# ts-gate.conf on the boot partition and ends its boot with a hard reset
# (sysrq b); a second boot (BOARD.log.2),
# with a broken line added to that file and gate.position changed, checks
# that the results files written before the reset are intact, that the line
# is refused, and that the service runs on the last good configuration.
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
ensure_packages qemu-system-x86 qemu-system-arm qemu-utils mtools dosfstools openssh-client
export MTOOLS_SKIP_CHECK=1

T=$OUT_DIR/test
mkdir -p "$T"
rm -f "$T/$BOARD".*
mcopy -n -i "$IMAGE@@$BOOT_OFFSET" ::/vmlinuz "$T/$BOARD.vmlinuz"
mcopy -n -i "$IMAGE@@$BOOT_OFFSET" ::/initrd.img "$T/$BOARD.initrd"
qemu-img create -q -f qcow2 -F raw -b "$IMAGE" "$T/$BOARD.qcow2" $(( $(stat -c %s "$IMAGE") + 512 * 1048576 ))
# edit_config SED_SCRIPT: ts-gate.conf on the boot partition edited as a
# person would on a laptop: the FAT partition taken out, changed with
# mtools, written back into the overlay (the image stays as it was built).
dd if="$IMAGE" of="$T/$BOARD.boot" bs=1M skip=$(( BOOT_OFFSET / 1048576 )) count=$(( BOOT_SIZE / 1048576 )) status=none
edit_config() {
    mtype -i "$T/$BOARD.boot" ::/ts-gate.conf | sed "$1" >"$T/$BOARD.conf"
    mcopy -o -i "$T/$BOARD.boot" "$T/$BOARD.conf" ::/ts-gate.conf
    qemu-io -f qcow2 -c "write -s $T/$BOARD.boot $BOOT_OFFSET $BOOT_SIZE" "$T/$BOARD.qcow2" >/dev/null
}
LOG=$T/$BOARD.log
TIMEOUT=${TS_GATE_IMAGE_TIMEOUT:-600}
# The board's console is not the VM's: the VM's serial line instead.
APPEND=$(printf '%s' "$KERNEL_CMDLINE" | sed 's/console=[^ ]*//g')

# test_disk FILE...: the second disk, with FILE... and the rig's board file,
# and a key pair for the second boot's debug.ssh (the public half goes in
# the boot partition's authorized_keys before that boot).
test_disk() {
    ssh-keygen -q -t ed25519 -N '' -C ts-gate-image-test -f "$T/$BOARD.debug_key"
    mkfs.vfat -C -n TESTDISK "$T/$BOARD.testdisk" 8192 >/dev/null
    mcopy -i "$T/$BOARD.testdisk" "$@" "$REPO_ROOT/board/vm-rig/board.conf" ::/
    mcopy -i "$T/$BOARD.testdisk" "$T/$BOARD.debug_key" ::/debug_key
}
edit_config 's/^# gate.position = 0.5 /gate.position = 0.4125/'
case $BOARD in
generic-x86)
    # gpio-sim for the image's kernel: the VM rig's kernel must be the same one.
    "$REPO_ROOT/Tests/vm/build-gpio-sim.sh" >&2
    # shellcheck disable=SC1091
    . "${TS_GATE_CACHE:-$HOME/.cache/ts-gate}/vm/kernel.env"
    [ "$KVER" = "$KERNEL_VERSION" ] || die "the image's kernel is $KERNEL_VERSION, the VM rig's $KVER: gpio-sim.ko would not load (TS_GATE_KERNEL_VERSION pins the rig's; or rebuild the image)"
    test_disk "${TS_GATE_CACHE:-$HOME/.cache/ts-gate}/vm/kernels/$KVER/gpio-sim/gpio-sim.ko"
    # /dev/kvm is there but nested KVM hangs on these machines: TCG. No NIC.
    QEMU=(qemu-system-x86_64 -M q35 -accel tcg -cpu max -smp 1 -m 1024
          -append "$APPEND console=ttyS0 ts-gate.test modules-load=mac80211_hwsim")
    ;;
*)
    # An arm64 board's rootfs on qemu's virt machine (no Pi 4 in QEMU 7.2),
    # on the same rig devices: Debian's arm64 kernel has vivid and
    # snd-aloop but neither gpio-sim nor i2c-stub, cross-built here.
    modules=$("$REPO_ROOT/Tests/vm/build-arm64-modules.sh" "$KERNEL_VERSION")
    test_disk "$modules/gpio-sim.ko" "$modules/i2c-stub.ko"
    QEMU=(qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 2 -m 1024 -accel tcg,thread=multi
          -append "$APPEND console=ttyAMA0 ts-gate.test modules-load=mac80211_hwsim")
    ;;
esac
QEMU+=(-drive "file=$T/$BOARD.testdisk,if=virtio,format=raw,readonly=on")
QEMU+=(-display none -no-reboot -nic none
       -drive "file=$T/$BOARD.qcow2,if=virtio,format=qcow2"
       -kernel "$T/$BOARD.vmlinuz" -initrd "$T/$BOARD.initrd")
# boot LOG EXTRA_APPEND: one boot; its verdict lines into LOG.verdict.
boot() {
    local log=$1 extra=$2 q=("${QEMU[@]}") i
    for i in "${!q[@]}"; do [ "${q[$i]}" = -append ] && q[$((i + 1))]="${q[$((i + 1))]} $extra"; done
    log "booting $(basename "$IMAGE") ${extra:+($extra) }(timeout ${TIMEOUT}s), serial log $log"
    local start=$SECONDS
    timeout --kill-after=5 "$TIMEOUT" "${q[@]}" -serial "file:$log" </dev/null || log "qemu exit status $?"
    tr -d '\r' <"$log" | grep -a 'image-test: ' | sed 's/^.*image-test: //' >"$log.verdict" || true
    cat "$log.verdict" >&2
    log "boot took $((SECONDS - start)) s"
}
verdict() { grep -m1 '^VERDICT image' "$1.verdict" || echo "no verdict"; }

start=$SECONDS
boot "$LOG" ""
v=$(verdict "$LOG")
# generic-x86 ends its first boot with a hard reset: boot again and compare
# the results files, as written before the reset.
hash=$(sed -n 's/^results \([0-9a-f]*\), hard reset$/\1/p' "$LOG.verdict")
if [ "$v" = "VERDICT image PASS" ] && [ -n "$hash" ]; then
    # And a broken edit, on the card between the two boots: refused by line,
    # and the box runs on the last good configuration (gate.position 0.4125).
    # The debug keys too, with a public key beside the file, as a person
    # turns SSH and the serial console on.
    mcopy -o -i "$T/$BOARD.boot" "$T/$BOARD.debug_key.pub" ::/authorized_keys
    edit_config 's/^gate.position = 0.4125/gate.position = 0.3/; s/^# debug.console = off /debug.console = on /; s/^# debug.ssh = off /debug.ssh = on /; s/^# wifi.ssid = ts-gate /wifi.ssid = ts-gate test /; s/^# wifi.passphrase = change-me /wifi.passphrase = sprint-gate-42 /; s/^# wifi.country = GB /wifi.country = GB /; $a camera.fps = fast'
    grep -q '^wifi.ssid = ts-gate test' "$T/$BOARD.conf" || die "the example ts-gate.conf has no '# wifi.ssid = ts-gate' line to edit"
    grep -q '^debug.ssh = on' "$T/$BOARD.conf" || die "the example ts-gate.conf has no '# debug.ssh = off' line to edit"
    bad=$(wc -l <"$T/$BOARD.conf")
    boot "$LOG.2" "ts-gate.expect=$hash ts-gate.badline=$bad"
    v=$(verdict "$LOG.2")
fi
if [ "$v" = "VERDICT image PASS" ]; then
    log "PASS $BOARD in $((SECONDS - start)) s"
    exit 0
fi
log "FAIL $BOARD in $((SECONDS - start)) s: $v"
exit 1
