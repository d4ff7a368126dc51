# shellcheck shell=bash
# Sourced by build-image.sh (R = the rootfs, B = the boot partition's files,
# CMDLINE): the Raspberry Pi's ROM and start4.elf read config.txt from the
# first FAT partition, load the DTB, the kernel and the initrd named there.
# raspi-firmware's hooks filled /boot/firmware in the rootfs; its config.txt
# names versioned files, so ours names the copies build-image.sh made.
[ -f "$R/boot/firmware/start4.elf" ] || die "the rootfs has no /boot/firmware/start4.elf: is raspi-firmware in IMAGE_PACKAGES?"
(cd "$R/boot/firmware" && find . -maxdepth 1 -type f ! -name 'vmlinuz*' ! -name 'initrd.img*' \
    ! -name config.txt ! -name cmdline.txt -exec cp {} "$B/" \;)
[ -d "$R/boot/firmware/overlays" ] && cp -r "$R/boot/firmware/overlays" "$B/"
cat >"$B/config.txt" <<CONFIG
# Raspberry Pi boot firmware settings (ts-gate image, Debian's kernel).
arm_64bit=1
# The mainline (Debian) kernel's device trees, not the Foundation's.
upstream_kernel=1
enable_uart=1
kernel=vmlinuz
initramfs initrd.img followkernel
disable_overscan=1
# The IMU on the header's I2C1 (GPIO2/3).
dtparam=i2c_arm=on
CONFIG
# Empty the rootfs's copy: the FAT partition is mounted over it.
rm -rf "${R:?}/boot/firmware/"*
BOOT_PART_TYPE=c
