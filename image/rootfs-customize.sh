#!/usr/bin/env bash
# mmdebstrap's customize hook for every board's root filesystem: what needs
# the rootfs's own tools (its passwd, its groupadd), so it is done once in
# the cached tarball. File placement needing none lives in build-image.sh.
#
#   rootfs-customize.sh ROOT
set -euo pipefail
ROOT=${1:?usage: $0 ROOT}

# Device groups the service's user is given. Debian has video and audio;
# udev rules (build-image.sh) give gpiochips to gpio and i2c buses to i2c.
for g in gpio i2c; do
    chroot "$ROOT" getent group "$g" >/dev/null || chroot "$ROOT" groupadd --system "$g"
done
chroot "$ROOT" getent passwd ts-gate >/dev/null ||
    chroot "$ROOT" useradd --system --no-create-home --home-dir /var/lib/ts-gate \
        --shell /usr/sbin/nologin --groups video,audio,gpio,i2c ts-gate

# Nothing in the image is a place to log in by password.
chroot "$ROOT" passwd --lock root >/dev/null

# sshd only when ts-gate.conf asks (debug.ssh, debug-access.sh), and with a
# host key made on each card: not one key baked into every image.
chroot "$ROOT" systemctl disable ssh.service ssh.socket >/dev/null 2>&1 || true
rm -f "$ROOT"/etc/ssh/ssh_host_*
# hostapd runs as ts-gate-wifi-ap.service with the configuration
# wifi-ap.sh writes from ts-gate.conf; Debian's unit (for /etc/hostapd) stays off.
chroot "$ROOT" systemctl disable hostapd.service >/dev/null 2>&1 || true
chroot "$ROOT" systemctl mask hostapd.service >/dev/null 2>&1 || true
