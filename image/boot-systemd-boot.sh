# shellcheck shell=bash
# Sourced by build-image.sh (B = the boot partition's files, CMDLINE): a PC
# boots the FAT partition through UEFI. UEFI's removable-media path starts
# \EFI\BOOT\BOOTX64.EFI, here systemd-boot (Debian's systemd-boot-efi, the
# host's copy: the board is amd64 like the build machine), which starts
# the one entry below at once. Legacy BIOS boot is not provided.
ensure_packages systemd-boot-efi
efi=/usr/lib/systemd/boot/efi/systemd-bootx64.efi
[ -f "$efi" ] || die "systemd-boot-efi installed no $efi"
mkdir -p "$B/EFI/BOOT" "$B/loader/entries"
cp "$efi" "$B/EFI/BOOT/BOOTX64.EFI"
printf 'default ts-gate.conf\ntimeout 0\neditor no\n' >"$B/loader/loader.conf"
cat >"$B/loader/entries/ts-gate.conf" <<ENTRY
title   ts-gate $VERSION
linux   /vmlinuz
initrd  /initrd.img
options $CMDLINE
ENTRY
