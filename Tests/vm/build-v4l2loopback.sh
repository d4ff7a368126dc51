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

ensure_kernel_compiler

SELF=$VM_DIR/${BASH_SOURCE[0]##*/}
SRC=$KDIR/v4l2loopback-src
OUT=$KDIR/v4l2loopback
KO=$OUT/v4l2loopback.ko
[ -f "$SRC/v4l2loopback.c" ] || die "no $SRC/v4l2loopback.c (fetch-kernel.sh unpacks it)"
KEY=$(fingerprint "$SELF" "$KVER" "$KPKGVER" "$SRC/v4l2loopback.c" "$SRC/v4l2loopback_formats.h")

if ! stamp_ok "$OUT/.stamp" "$KEY" || [ ! -f "$KO" ]; then
    log "building v4l2loopback.ko for $KVER"
    rm -rf "$OUT" "$OUT.tmp"
    mkdir -p "$OUT.tmp"
    B=$OUT.tmp
    cp "$SRC/v4l2loopback.c" "$SRC/v4l2loopback_formats.h" "$B/"
    echo 'obj-m := v4l2loopback.o' >"$B/Kbuild"
    build_module v4l2loopback "$B"
    mv "$B" "$OUT"
    stamp_set "$OUT/.stamp" "$KEY"
fi

install_module v4l2loopback "$KO"
