#!/usr/bin/env bash
# A board's SD card image, from the cached root filesystem (rootfs.sh) and
# the static firmware, without loop devices or mounts: each partition is
# built as a file, then placed into the image at its offset.
#
#   image/build-image.sh BOARD FIRMWARE
#
# Writes build/image/ts-gate-BOARD-VERSION.img and beside it .img.zst,
# .img.bmap and .sha256 (of both), and build/image/BOARD.latest naming the
# image. Layout (DOS label, fixed ids, so root=PARTUUID is known here):
#   1  FAT32 "BOOT" 256 MiB  kernel, initrd, boot loader, ts-gate.conf
#   2  ext4 "root"           read-only /
#   3  ext4 "data" 64 MiB    /var/lib/ts-gate, grown to fill the card at boot
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 2 ] || die "usage: $0 BOARD FIRMWARE"
load_board "$1"
FIRMWARE=$(readlink -f "$2")
[ -x "$FIRMWARE" ] || die "no firmware at $2 (make firmware ARCH=$IMAGE_FIRMWARE_ARCH)"

ensure_packages dosfstools mtools fdisk e2fsprogs zstd bmap-tools
export MTOOLS_SKIP_CHECK=1

VERSION=$(sed -n 's/.*static let text = "\(.*\)".*/\1/p' "$REPO_ROOT/Sources/GateBox/TSGate.swift")
VERSION=$VERSION-g$(git -C "$REPO_ROOT" rev-parse --short=8 HEAD)$(git -C "$REPO_ROOT" diff --quiet HEAD -- || echo -dirty)
NAME=ts-gate-$BOARD-$VERSION
# Fixed ids from the board's name: the same board gets the same PARTUUIDs
# and filesystem UUIDs in every build.
ID=$(printf '%s' "ts-gate-$BOARD" | sha256sum | cut -c1-40)
DISK_ID=${ID:0:8}
uuid() { printf '%s-%s-4%s-8%s-%s' "${1:0:8}" "${1:8:4}" "${1:13:3}" "${1:17:3}" "${1:20:12}"; }
SEED=$(printf '%s' "$ID" | sha256sum | cut -c1-32)
ROOT_UUID=$(uuid "$(printf 'root%s' "$ID" | sha256sum)")
DATA_UUID=$(uuid "$(printf 'data%s' "$ID" | sha256sum)")
HASH_SEED=$(uuid "$SEED")
ROOT_DEV=PARTUUID=$DISK_ID-02
BOOT_MIB=256
DATA_MIB=64

TAR=$("$IMAGE_DIR/rootfs.sh" "$BOARD")
WORK=$OUT_DIR/$BOARD.work
rm -rf "$WORK"
mkdir -p "$WORK/rootfs" "$WORK/boot" "$WORK/data"
log "unpacking $(basename "$TAR")"
tar -xpf "$TAR" -C "$WORK/rootfs" --numeric-owner
R=$WORK/rootfs

# --- the root filesystem: the box's files over Debian's -------------------
cp -a "$IMAGE_DIR/overlay/." "$R/"
install -m 0755 "$FIRMWARE" "$R/usr/bin/ts-gate"
# The voice's clips: spoken by espeak-ng here, at build time; the box only
# plays them (it carries no speech engine).
"$IMAGE_DIR/voice/make-voice.sh" "$REPO_ROOT/build/voice"
install -d "$R/usr/share/ts-gate/voice"
install -m 0644 "$REPO_ROOT/build/voice/"*.wav "$R/usr/share/ts-gate/voice/"
install -d "$R/etc/ts-gate" "$R/boot/firmware" "$R/var/lib/ts-gate"
install -m 0644 "$BOARD_DIR/board.conf" "$R/etc/ts-gate/board.conf"
# The user's settings are the one file a person edits, on the partition a
# laptop opens: /etc points there.
ln -sfn /boot/firmware/ts-gate.conf "$R/etc/ts-gate/ts-gate.conf"
# The boot test's verdict, inert unless the kernel command line asks for it.
install -m 0755 "$REPO_ROOT/Tests/image/verdict.sh" "$R/usr/lib/ts-gate/image-test.sh"
install -m 0644 "$REPO_ROOT/Tests/image/ts-gate-image-test.service" "$R/etc/systemd/system/"
# Enabled as `systemctl enable` would, by the targets their [Install] names.
for unit in ts-gate.service ts-gate-grow-data.service ts-gate-debug.service ts-gate-wifi.service ts-gate-image-test.service; do
    target=$(sed -n 's/^WantedBy=//p' "$R/etc/systemd/system/$unit")
    mkdir -p "$R/etc/systemd/system/$target.wants"
    ln -sfn "/etc/systemd/system/$unit" "$R/etc/systemd/system/$target.wants/$unit"
done
# No saved radio state: systemd-rfkill keeps it under /var/lib/systemd, on
# the read-only root, and fails at every boot with a radio; a box's Wi-Fi
# and Bluetooth are never soft-blocked by an old state.
ln -sfn /dev/null "$R/etc/systemd/system/systemd-rfkill.service"
ln -sfn /dev/null "$R/etc/systemd/system/systemd-rfkill.socket"
# No login on the serial console (a box in a field has no one at it): the
# generator that starts one on the kernel's console is masked. debug.console
# = on in ts-gate.conf starts ts-gate-debug-console@ instead (debug-access.sh).
mkdir -p "$R/etc/systemd/system-generators"
ln -sfn /dev/null "$R/etc/systemd/system-generators/systemd-getty-generator"
cat >"$R/etc/fstab" <<FSTAB
# Read-only root; the user's settings and the results on their own partitions.
$ROOT_DEV  /                 ext4   ro,noatime                    0 1
PARTUUID=$DISK_ID-01  /boot/firmware  vfat  ro,nofail,umask=0022,x-systemd.device-timeout=30s  0 2
PARTUUID=$DISK_ID-03  /var/lib/ts-gate  ext4  rw,noatime,nodev,nosuid,noexec  0 2
tmpfs  /tmp      tmpfs  mode=1777,nosuid,nodev,size=64M  0 0
tmpfs  /var/tmp  tmpfs  mode=1777,nosuid,nodev,size=16M  0 0
tmpfs  /var/log  tmpfs  mode=0755,nosuid,nodev,size=16M  0 0
FSTAB
# Empty: systemd makes a transient id on each boot (the root cannot keep one).
: >"$R/etc/machine-id"
rm -f "$R/var/lib/dbus/machine-id"
rm -rf "$R/var/log/journal"

# --- the boot partition --------------------------------------------------
B=$WORK/boot
kernel=$(cd "$R/boot" && ls vmlinuz-* | sort -V | tail -1)
kver=${kernel#vmlinuz-}
[ -f "$R/boot/initrd.img-$kver" ] || die "rootfs has no initrd.img-$kver"
CMDLINE="root=$ROOT_DEV ro rootwait console=tty0 console=$IMAGE_CONSOLE,115200 quiet panic=10"
{
    echo "# ts-gate settings of this box: edit them on any computer (this is the"
    echo "# FAT partition named BOOT); the box reads them at power-on. They override"
    echo "# the board file /etc/ts-gate/board.conf ($BOARD) key by key."
    # The coach's page is on by default on the box (off elsewhere).
    sed -e '1,/^$/d' -e 's/^# http = 0.0.0.0:80 /http = 0.0.0.0:80 /' "$REPO_ROOT/board/ts-gate.conf.example"
} >"$B/ts-gate.conf"
install -m 0644 "$BOARD_DIR/board.conf" "$B/board-$BOARD.conf.txt"
printf 'ts-gate %s, board %s, kernel %s\n' "$VERSION" "$BOARD" "$kver" >"$B/VERSION.txt"
cp "$R/boot/$kernel" "$B/vmlinuz"
cp "$R/boot/initrd.img-$kver" "$B/initrd.img"
printf '%s\n' "$CMDLINE" >"$B/cmdline.txt"
BOOT_PART_TYPE=c
case ${IMAGE_BOOTLOADER:-none} in
    systemd-boot) . "$IMAGE_DIR/boot-systemd-boot.sh" ;;
    raspi-firmware) . "$IMAGE_DIR/boot-raspi.sh" ;;
    none) ;;
    *) die "board/$BOARD/image.conf: unknown IMAGE_BOOTLOADER $IMAGE_BOOTLOADER" ;;
esac

log "partitions: boot ${BOOT_MIB} MiB, data ${DATA_MIB} MiB"
truncate -s "${BOOT_MIB}M" "$WORK/boot.img"
mkfs.vfat -F 32 -n BOOT --invariant "$WORK/boot.img" >/dev/null
(cd "$B" && mcopy -s -p -m -i "$WORK/boot.img" ./* ::/)

# Room for the root's files plus a fifth, in whole MiB.
ROOT_MIB=$(( $(du -sm --apparent-size "$R" | cut -f1) * 6 / 5 + 64 ))
log "root ${ROOT_MIB} MiB from $(du -sm "$R" | cut -f1) MiB of files"
rm -f "$WORK/root.img" "$WORK/data.img"
truncate -s "${ROOT_MIB}M" "$WORK/root.img"
mkfs.ext4 -q -F -L root -U "$ROOT_UUID" -E "hash_seed=$HASH_SEED" -d "$R" "$WORK/root.img"
tsid=$(awk -F: '$1 == "ts-gate" { print $3 ":" $4 }' "$R/etc/passwd")
[ -n "$tsid" ] || die "no ts-gate user in the rootfs"
truncate -s "${DATA_MIB}M" "$WORK/data.img"
mkfs.ext4 -q -F -L data -U "$DATA_UUID" -E "hash_seed=$HASH_SEED,root_owner=$tsid" "$WORK/data.img"

# --- the image: the partitions at 1 MiB boundaries -----------------------
mkdir -p "$OUT_DIR"
IMG=$OUT_DIR/$NAME.img
rm -f "$IMG" "$IMG.zst" "$IMG.bmap" "$OUT_DIR/$NAME.sha256"
s1=2048
s2=$(( s1 + BOOT_MIB * 2048 ))
s3=$(( s2 + ROOT_MIB * 2048 ))
end=$(( s3 + DATA_MIB * 2048 ))
truncate -s $(( end * 512 )) "$IMG"
sfdisk --quiet "$IMG" <<TABLE
label: dos
label-id: 0x$DISK_ID
unit: sectors
start=$s1, size=$(( BOOT_MIB * 2048 )), type=$BOOT_PART_TYPE, bootable
start=$s2, size=$(( ROOT_MIB * 2048 )), type=83
start=$s3, size=$(( DATA_MIB * 2048 )), type=83
TABLE
dd if="$WORK/boot.img" of="$IMG" bs=1M seek=$(( s1 / 2048 )) conv=notrunc,sparse status=none
dd if="$WORK/root.img" of="$IMG" bs=1M seek=$(( s2 / 2048 )) conv=notrunc,sparse status=none
dd if="$WORK/data.img" of="$IMG" bs=1M seek=$(( s3 / 2048 )) conv=notrunc,sparse status=none

bmaptool -q create -o "$IMG.bmap" "$IMG"
zstd -q -10 -T2 -f "$IMG" -o "$IMG.zst"
(cd "$OUT_DIR" && sha256sum "$NAME.img" "$NAME.img.zst" >"$NAME.sha256")
# What the boot test and a person flashing need, without unpacking anything.
cat >"$OUT_DIR/$BOARD.latest" <<LATEST
IMAGE=$IMG
KERNEL_CMDLINE="$CMDLINE"
BOOT_OFFSET=$(( s1 * 512 ))
BOOT_SIZE=$(( BOOT_MIB * 1048576 ))
ROOT_OFFSET=$(( s2 * 512 ))
DATA_OFFSET=$(( s3 * 512 ))
KERNEL_VERSION=$kver
LATEST
rm -rf "$WORK"
log "$IMG: $(( end / 2048 )) MiB, $(du -m "$IMG" | cut -f1) MiB used, zstd $(du -m "$IMG.zst" | cut -f1) MiB"
