#!/usr/bin/env bash
# The root filesystem of a board's image, as a tarball built by mmdebstrap
# from Debian's archive, cached: prints the tarball's path.
#
#   image/rootfs.sh BOARD
#
# The cache key is a hash of the package list, suite, mirrors and this
# script and its hook, so a changed list builds a new tarball; a tarball
# older than TS_GATE_ROOTFS_MAX_AGE_DAYS (7) is built again, which brings in
# the archive's security updates. Two cold builds of one key give the same
# bytes (SOURCE_DATE_EPOCH is fixed).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 BOARD"
load_board "$1"

SUITE=bookworm
MIRRORS=(
    "deb http://deb.debian.org/debian $SUITE main non-free-firmware"
    "deb http://deb.debian.org/debian $SUITE-updates main non-free-firmware"
    "deb http://deb.debian.org/debian-security $SUITE-security main non-free-firmware"
)
# What every box runs on. e2fsprogs and fdisk grow the data partition;
# dosfstools checks the boot partition a laptop may have left dirty;
# i2c-tools (its udev rule gives i2c buses to group i2c) and v4l-utils are
# how a person checks the IMU and the camera on the box. No bluez: ts-gate speaks to the controller through the kernel's mgmt and
# HCI sockets, so no bluetoothd. openssh-server is off unless ts-gate.conf
# asks for it (debug.ssh; rootfs-customize.sh disables it). hostapd, iw and
# wireless-regdb: the access point for the coach's phone, started by
# ts-gate-wifi.service only when ts-gate.conf names it (Debian's own
# hostapd.service stays off). espeak-ng: `ts-gate athletes add` on the box
# speaks a new athlete's name into a clip in the start calls' voice (the
# firmware never runs it); with its libraries about 12 MB once the other
# languages' dictionaries are left out below (23 MB with them).
PACKAGES=(systemd-sysv udev kmod initramfs-tools e2fsprogs fdisk dosfstools
          zstd i2c-tools v4l-utils openssh-server hostapd iw wireless-regdb espeak-ng $IMAGE_PACKAGES)
MAX_AGE_DAYS=${TS_GATE_ROOTFS_MAX_AGE_DAYS:-7}

ensure_packages mmdebstrap arch-test qemu-user-static binfmt-support
if [ "$IMAGE_ARCH" != "$(dpkg --print-architecture)" ]; then
    # No systemd on the build machines: binfmt_misc is not mounted and
    # mmdebstrap cannot run the foreign arch's maintainer scripts.
    [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    qemu=/usr/lib/binfmt.d/qemu-${IMAGE_QEMU_ARCH:?board sets no IMAGE_QEMU_ARCH}.conf
    [ -e "/proc/sys/fs/binfmt_misc/qemu-$IMAGE_QEMU_ARCH" ] || grep '^:' "$qemu" >/proc/sys/fs/binfmt_misc/register
    arch-test "$IMAGE_ARCH" >/dev/null || die "arch-test $IMAGE_ARCH fails after registering $qemu"
fi

KEY=$(fingerprint "$SUITE" "$IMAGE_ARCH" "${MIRRORS[@]}" "${PACKAGES[@]}" \
      "${IMAGE_INITRAMFS_MODULES:-}" "$IMAGE_DIR/rootfs.sh" "$IMAGE_DIR/rootfs-customize.sh" | cut -c1-16)
TAR=$IMAGE_CACHE/rootfs-$IMAGE_ARCH-$KEY.tar

# One mmdebstrap at a time for all arches: they share tmp/ below (and two
# would only halve each other's speed on the build machines' 2 cores).
take_lock rootfs
if [ -f "$TAR" ] && [ -z "$(find "$TAR" -mtime +"$MAX_AGE_DAYS")" ]; then
    log "cached: $TAR"
    echo "$TAR"
    exit 0
fi
[ -f "$TAR" ] && log "$TAR is older than $MAX_AGE_DAYS days: building it again for the archive's updates"

mkdir -p "$IMAGE_CACHE/tmp"
# An earlier run killed mid-build may have left its chroot's proc/sys/dev
# mounted under tmp: refuse to delete through them.
if grep -q " $IMAGE_CACHE/tmp/" /proc/mounts; then
    die "mounts left under $IMAGE_CACHE/tmp by a killed mmdebstrap: umount them first"
fi
rm -rf "${IMAGE_CACHE:?}/tmp/"*

EXCLUDES=(--dpkgopt='path-exclude=/usr/share/man/*'
          --dpkgopt='path-exclude=/usr/share/locale/*'
          --dpkgopt='path-include=/usr/share/locale/locale.alias'
          --dpkgopt='path-exclude=/usr/share/doc/*'
          --dpkgopt='path-include=/usr/share/doc/*/copyright'
          --dpkgopt='path-exclude=/usr/share/info/*'
          --dpkgopt='path-exclude=/usr/lib/*/espeak-ng-data/*_dict'
          --dpkgopt='path-include=/usr/lib/*/espeak-ng-data/en_dict')
HOOKS=()
if [ -n "${IMAGE_INITRAMFS_MODULES:-}" ]; then
    # Under qemu-user Debian's MODULES=most initramfs takes 15-20 min per
    # build; a short list of the board's boot drivers takes minutes.
    HOOKS+=(--essential-hook="mkdir -p \"\$1/etc/initramfs-tools/conf.d\" && printf 'MODULES=list\nCOMPRESS=zstd\n' >\"\$1/etc/initramfs-tools/conf.d/ts-gate.conf\" && printf '%s\n' $IMAGE_INITRAMFS_MODULES >\"\$1/etc/initramfs-tools/modules\"")
    # That modules file is initramfs-tools's conffile: keep ours, do not ask.
    HOOKS+=(--dpkgopt=force-confold)
fi

log "mmdebstrap $SUITE $IMAGE_ARCH (${PACKAGES[*]}) -> $TAR"
start=$(date +%s)
TMPDIR=$IMAGE_CACHE/tmp SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1704067200} \
    mmdebstrap --variant=minbase --format=tar --architectures="$IMAGE_ARCH" \
    --include="$(IFS=,; echo "${PACKAGES[*]}")" \
    --aptopt='Acquire::Languages "none"' \
    "${EXCLUDES[@]}" "${HOOKS[@]}" \
    --customize-hook="$IMAGE_DIR/rootfs-customize.sh" \
    "$SUITE" "$TAR.part" "${MIRRORS[@]}" </dev/null >&2
mv -f "$TAR.part" "$TAR"
find "$IMAGE_CACHE" -maxdepth 1 -name "rootfs-$IMAGE_ARCH-*.tar" ! -path "$TAR" -delete
log "built $TAR ($(du -m "$TAR" | cut -f1) MB) in $(( $(date +%s) - start )) s"
echo "$TAR"
