#!/usr/bin/env bash
# Build v4l2loopback.ko out of tree against the cached Debian headers (Debian
# ships it as DKMS source only, unpacked by fetch-kernel.sh) and install it
# into the cached module tree as extra/v4l2loopback.ko (then depmod). In the
# VM it is a camera that sends only MJPEG (the mjpeg scenario). Idempotent: a
# re-run is a no-op.
#
#   Tests/vm/build-v4l2loopback.sh
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

"$VM_DIR/fetch-kernel.sh"
load_kernel_env
take_lock v4l2loopback

CC_NAME=$(grep -o 'gcc-[0-9][0-9]*' "$KHEADERS/.kernelvariables" | head -n1 || true)
[ -n "$CC_NAME" ] || die "cannot find the compiler in $KHEADERS/.kernelvariables"
ensure_packages "$CC_NAME" make

SELF=$VM_DIR/${BASH_SOURCE[0]##*/}
SRC=$KDIR/v4l2loopback-src
OUT=$KDIR/v4l2loopback
KO=$OUT/v4l2loopback.ko
INSTALLED=$KROOT/lib/modules/$KVER/extra/v4l2loopback.ko
[ -f "$SRC/v4l2loopback.c" ] || die "no $SRC/v4l2loopback.c (fetch-kernel.sh unpacks it)"
KEY=$(fingerprint "$SELF" "$KVER" "$KPKGVER" "$SRC/v4l2loopback.c" "$SRC/v4l2loopback_formats.h")

if ! stamp_ok "$OUT/.stamp" "$KEY" || [ ! -f "$KO" ]; then
    log "building v4l2loopback.ko for $KVER"
    rm -rf "$OUT" "$OUT.tmp"
    mkdir -p "$OUT.tmp"
    B=$OUT.tmp
    cp "$SRC/v4l2loopback.c" "$SRC/v4l2loopback_formats.h" "$B/"
    echo 'obj-m := v4l2loopback.o' >"$B/Kbuild"
    # One job: the machine is shared with other builds.
    make -s -j1 -C "$KHEADERS" M="$B" modules >"$B/build.log" 2>&1 || {
        cat "$B/build.log" >&2
        die "v4l2loopback build failed"
    }
    [ -f "$B/v4l2loopback.ko" ] || die "no v4l2loopback.ko produced"
    modinfo -F vermagic "$B/v4l2loopback.ko" | grep -q "^$KVER " ||
        die "v4l2loopback.ko vermagic is not $KVER: $(modinfo -F vermagic "$B/v4l2loopback.ko")"
    mv "$B" "$OUT"
    stamp_set "$OUT/.stamp" "$KEY"
fi

if ! cmp -s "$KO" "$INSTALLED"; then
    log "installing v4l2loopback.ko into $KROOT/lib/modules/$KVER/extra"
    mkdir -p "${INSTALLED%/*}"
    cp "$KO" "$INSTALLED.tmp"
    mv -f "$INSTALLED.tmp" "$INSTALLED"
    depmod -b "$KROOT" "$KVER"
fi
modprobe -d "$KROOT" -S "$KVER" --show-depends v4l2loopback >/dev/null ||
    die "modprobe cannot resolve v4l2loopback in $KROOT"
log "ready: $INSTALLED"
