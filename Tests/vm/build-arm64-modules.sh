#!/usr/bin/env bash
# Cross-build, for the arm64 image's kernel, the two test drivers Debian's
# arm64 kernels lack: gpio-sim.ko (as build-gpio-sim.sh does for the rig)
# and i2c-stub.ko. The arm64 image's boot test loads them (with vivid and
# snd-aloop, which that kernel has), so the aarch64 firmware runs on real
# drivers as the x86_64 one does in the VM rig. Idempotent.
#
#   Tests/vm/build-arm64-modules.sh KVER      (e.g. 6.1.0-56-arm64)
#
# Prints the directory holding gpio-sim.ko and i2c-stub.ko. Uses the rig's
# kernel (fetch-kernel.sh) for the source files and for kbuild's host tools:
# the arm64 kernel must be the same ABI and upload. Downloads
# linux-headers-KVER:arm64 (dpkg's arm64 architecture, added as
# image/sysroot.sh does) and installs the cross compiler gcc-12-aarch64-linux-gnu.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 KVER (the arm64 image's kernel, such as 6.1.0-56-arm64)"
ARM_KVER=$1
"$VM_DIR/fetch-kernel.sh" >&2
load_kernel_env
take_lock arm64-modules
ABI=${ARM_KVER%-arm64}
[ "$ABI-arm64" = "$ARM_KVER" ] || die "$ARM_KVER is not an arm64 kernel version"
[ "$ABI" = "${KVER%-*}" ] || die "the arm64 image's kernel $ARM_KVER is not the rig's ABI ($KVER): rebuild the image or pin TS_GATE_KERNEL_VERSION"

cc=$(grep -o 'gcc-[0-9][0-9]*' "$KHEADERS/.kernelvariables" | head -n1)
ensure_packages make "$cc-aarch64-linux-gnu" >&2

SELF=$VM_DIR/${BASH_SOURCE[0]##*/}
OUT=$VM_CACHE/kernels/$ARM_KVER
DEB=$OUT/linux-headers-${ARM_KVER}_${KPKGVER}_arm64.deb
KEY=$(fingerprint "$SELF" "$ARM_KVER" "$KPKGVER" "$KSRC/drivers/gpio/gpio-sim.c" "$KSRC/drivers/i2c/i2c-stub.c" \
      "$KSRC/kernel/irq/irq_sim.c" "$KSRC/drivers/gpio/gpiolib.h")
if stamp_ok "$OUT/.stamp" "$KEY" && [ -f "$OUT/modules/gpio-sim.ko" ] && [ -f "$OUT/modules/i2c-stub.ko" ]; then
    echo "$OUT/modules"
    exit 0
fi
log "building gpio-sim.ko and i2c-stub.ko for $ARM_KVER (cross, $cc)"
mkdir -p "$OUT"
if [ ! -s "$DEB" ]; then
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        log "adding dpkg architecture arm64"
        dpkg --add-architecture arm64
    fi
    apt-cache show "linux-headers-$ARM_KVER:arm64=$KPKGVER" >/dev/null 2>&1 || apt-get update -q </dev/null >&2
    (cd "$OUT" && apt-get download -q -o APT::Sandbox::User=root "linux-headers-$ARM_KVER:arm64=$KPKGVER" >&2) ||
        die "cannot download linux-headers-$ARM_KVER:arm64 $KPKGVER (the rig's kernel upload)"
    mv "$OUT"/linux-headers-"$ARM_KVER"_*_arm64.deb "$DEB" 2>/dev/null || true
    [ -s "$DEB" ] || die "no $DEB after the download"
fi
rm -rf "$OUT/headers" "$OUT/modules"
dpkg-deb -x "$DEB" "$OUT/headers"
H=$OUT/headers/usr/src/linux-headers-$ARM_KVER
# Its Makefile names the -common tree and kbuild by absolute path (the same
# upload as the rig's, already unpacked there); kbuild's tools run on this host.
sed -i "s|/usr/src/linux-headers-$ABI-common|$KDIR/headers/usr/src/linux-headers-$ABI-common|g" "$H/Makefile"
mkdir -p "$OUT/headers/usr/lib"
for k in "$KDIR"/headers/usr/lib/linux-kbuild-*; do ln -sfn "$k" "$OUT/headers/usr/lib/${k##*/}"; done

build() {   # build NAME DIR
    make -s -j1 -C "$H" M="$2" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- modules >"$2/build.log" 2>&1 || {
        cat "$2/build.log" >&2
        die "$1 (arm64) build failed"
    }
    [ -f "$2/$1.ko" ] || die "no $1.ko produced"
    modinfo -F vermagic "$2/$1.ko" | grep -q "^$ARM_KVER " || die "$1.ko vermagic is not $ARM_KVER: $(modinfo -F vermagic "$2/$1.ko")"
    cp "$2/$1.ko" "$OUT/modules/"
}
mkdir -p "$OUT/modules" "$OUT/build/gpio-sim" "$OUT/build/i2c-stub"
B=$OUT/build/gpio-sim
cp "$KSRC/drivers/gpio/gpio-sim.c" "$B/gpio-sim-main.c"
cp "$KSRC/drivers/gpio/gpiolib.h" "$B/gpiolib.h"
cp "$KSRC/kernel/irq/irq_sim.c" "$B/irq_sim_local.c"
# As build-gpio-sim.sh: irq_sim built in, without its exports or irq_to_desc.
sed -i -e '/^EXPORT_SYMBOL_GPL(/d' -e 's/handle_simple_irq(irq_to_desc(\([a-z_]*\)))/generic_handle_irq(\1)/' "$B/irq_sim_local.c"
printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim_local.o\n' >"$B/Kbuild"
build gpio-sim "$B"
B=$OUT/build/i2c-stub
cp "$KSRC/drivers/i2c/i2c-stub.c" "$B/i2c-stub.c"
printf 'obj-m := i2c-stub.o\n' >"$B/Kbuild"
build i2c-stub "$B"
rm -rf "$OUT/build" "$OUT/headers"
stamp_set "$OUT/.stamp" "$KEY"
log "ready: $OUT/modules (gpio-sim.ko, i2c-stub.ko)"
echo "$OUT/modules"
