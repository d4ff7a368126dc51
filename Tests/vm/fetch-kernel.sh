#!/usr/bin/env bash
# Fetch and unpack the Debian kernel the VM rig boots, plus what the
# out-of-tree gpio-sim and v4l2loopback builds need. Idempotent: a re-run is a no-op.
#
#   Tests/vm/fetch-kernel.sh
#
# - installs the host packages the rig needs (apt-get), if missing;
# - resolves the kernel from the linux-image-amd64 metapackage (its candidate
#   version, or TS_GATE_KERNEL_VERSION=<linux-image-amd64 version> to pin);
# - downloads linux-image-KVER, linux-headers-ABI-amd64, linux-headers-ABI-common,
#   linux-kbuild-SERIES and linux-source-SERIES at that exact version, and
#   v4l2loopback-dkms (module source) at its candidate version;
# - unpacks them into the cache and runs depmod; the headers' Makefile is
#   pointed at the unpacked -common tree; only the source files the rig
#   compiles are taken out of linux-source's tarball.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Files the rig needs from the kernel source tarball (paths inside the tree).
SRC_FILES=(drivers/gpio/gpio-sim.c drivers/gpio/gpiolib.h kernel/irq/irq_sim.c)

ensure_packages "${HOST_PACKAGES[@]}"
take_lock fetch

TMPS=()
cleanup() { local t; for t in "${TMPS[@]}"; do rm -rf "$t"; done; }
trap cleanup EXIT

# --- resolve the kernel -----------------------------------------------------
# One apt-cache call (each costs ~1 s here): the candidate (or pinned) version
# of the metapackage and its "Depends: linux-image-6.1.0-56-amd64 (= 6.1.192-2)".
meta_show() {
    if [ -n "${TS_GATE_KERNEL_VERSION:-}" ]; then
        apt-cache show "linux-image-amd64=$TS_GATE_KERNEL_VERSION" 2>/dev/null || true
    else
        apt-cache show --no-all-versions linux-image-amd64 2>/dev/null || true
    fi
}
parse_dep() {
    sed -n 's/^Depends: //p' | head -n1 | tr ',' '\n' |
        sed -n 's/^ *\(linux-image-[^ ]*\) (= \([^)]*\)).*/\1 \2/p' | head -n1
}
DEP=$(meta_show | parse_dep)
if [ -z "$DEP" ]; then
    log "linux-image-amd64${TS_GATE_KERNEL_VERSION:+=$TS_GATE_KERNEL_VERSION} unknown to apt: apt-get update"
    apt-get update -q </dev/null
    DEP=$(meta_show | parse_dep)
fi
[ -n "$DEP" ] || die "cannot resolve linux-image-amd64${TS_GATE_KERNEL_VERSION:+=$TS_GATE_KERNEL_VERSION} to a kernel package"
IMAGE_PKG=${DEP% *}
KPKGVER=${DEP#* }
KVER=${IMAGE_PKG#linux-image-}                  # 6.1.0-56-amd64
FLAVOUR=${KVER##*-}                             # amd64
ABI=${KVER%-"$FLAVOUR"}                         # 6.1.0-56
KSERIES=$(echo "$ABI" | cut -d. -f1,2)          # 6.1
case "$KVER" in *-*-*) ;; *) die "unexpected kernel package name $IMAGE_PKG" ;; esac

KDIR=$VM_CACHE/kernels/$KVER
DEBS=$VM_CACHE/debs
mkdir -p "$KDIR" "$DEBS"
log "kernel $KVER (package version $KPKGVER)"

# --- download ---------------------------------------------------------------
# download PKG VERSION -> prints the path of the cached .deb
download() {
    local pkg=$1 ver=$2 stamp f tmp n
    stamp=$DEBS/.ok-${pkg}_${ver//:/%3a}
    if [ -f "$stamp" ] && [ -f "$DEBS/$(cat "$stamp")" ]; then
        echo "$DEBS/$(cat "$stamp")"
        return 0
    fi
    tmp=$(mktemp -d "$DEBS/.dl.XXXXXX"); TMPS+=("$tmp")
    log "downloading $pkg=$ver"
    if ! (cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$pkg=$ver" </dev/null >&2); then
        log "download failed; refreshing package lists and retrying"
        apt-get update -q </dev/null >&2
        (cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$pkg=$ver" </dev/null >&2)
    fi
    n=$(find "$tmp" -maxdepth 1 -name '*.deb' | wc -l)
    [ "$n" = 1 ] || die "apt-get download $pkg=$ver left $n .deb files"
    f=$(basename "$(find "$tmp" -maxdepth 1 -name '*.deb')")
    dpkg-deb --info "$tmp/$f" >/dev/null || die "corrupt download $f"
    mv -f "$tmp/$f" "$DEBS/$f"
    stamp_set "$stamp" "$f"
    echo "$DEBS/$f"
}

DEB_IMAGE=$(download "$IMAGE_PKG" "$KPKGVER")
DEB_HDR=$(download "linux-headers-$ABI-$FLAVOUR" "$KPKGVER")
DEB_HDR_COMMON=$(download "linux-headers-$ABI-common" "$KPKGVER")
DEB_KBUILD=$(download "linux-kbuild-$KSERIES" "$KPKGVER")
DEB_SOURCE=$(download "linux-source-$KSERIES" "$KPKGVER")

# Stamps key on the script and the .deb file names (name = package + version,
# verified by apt at download), so a re-run hashes nothing big.
SELF=$VM_DIR/${BASH_SOURCE[0]##*/}

# --- unpack the image and run depmod ----------------------------------------
KEY=$(fingerprint "$SELF" "${DEB_IMAGE##*/}")
if ! stamp_ok "$KDIR/.stamp-root" "$KEY" || [ ! -d "$KDIR/root/lib/modules/$KVER" ]; then
    log "unpacking $(basename "$DEB_IMAGE")"
    rm -rf "$KDIR/root" "$KDIR/root.tmp" "$KDIR/.stamp-root"
    dpkg-deb -x "$DEB_IMAGE" "$KDIR/root.tmp"
    [ -f "$KDIR/root.tmp/boot/vmlinuz-$KVER" ] || die "no boot/vmlinuz-$KVER in $DEB_IMAGE"
    depmod -b "$KDIR/root.tmp" "$KVER"
    mv "$KDIR/root.tmp" "$KDIR/root"
    stamp_set "$KDIR/.stamp-root" "$KEY"
fi

# --- unpack the headers + kbuild ---------------------------------------------
KEY=$(fingerprint "$SELF" "${DEB_HDR##*/}" "${DEB_HDR_COMMON##*/}" "${DEB_KBUILD##*/}")
if ! stamp_ok "$KDIR/.stamp-headers" "$KEY"; then
    log "unpacking headers and kbuild"
    rm -rf "$KDIR/headers" "$KDIR/headers.tmp" "$KDIR/.stamp-headers"
    for d in "$DEB_HDR" "$DEB_HDR_COMMON" "$DEB_KBUILD"; do
        dpkg-deb -x "$d" "$KDIR/headers.tmp"
    done
    mk=$KDIR/headers.tmp/usr/src/linux-headers-$KVER/Makefile
    [ -f "$mk" ] || die "no $mk"
    # The flavour Makefile includes the -common tree by absolute path: point
    # it at the unpacked copy (the final location, after the rename below).
    grep -q "/usr/src/linux-headers-$ABI-common" "$mk" ||
        die "$mk does not reference linux-headers-$ABI-common"
    sed -i "s|/usr/src/linux-headers-$ABI-common|$KDIR/headers/usr/src/linux-headers-$ABI-common|g" "$mk"
    mv "$KDIR/headers.tmp" "$KDIR/headers"
    stamp_set "$KDIR/.stamp-headers" "$KEY"
fi

# --- the needed files from the source tarball ---------------------------------
KEY=$(fingerprint "$SELF" "${DEB_SOURCE##*/}" "${SRC_FILES[@]}")
if ! stamp_ok "$KDIR/.stamp-src" "$KEY"; then
    log "extracting ${SRC_FILES[*]} from $(basename "$DEB_SOURCE")"
    rm -rf "$KDIR/src" "$KDIR/src.tmp" "$KDIR/.stamp-src"
    mkdir -p "$KDIR/src.tmp"
    tarball=./usr/src/linux-source-$KSERIES.tar.xz
    members=()
    for f in "${SRC_FILES[@]}"; do members+=("linux-source-$KSERIES/$f"); done
    dpkg-deb --fsys-tarfile "$DEB_SOURCE" | tar -xO -f - "$tarball" |
        tar -xJ -f - -C "$KDIR/src.tmp" --strip-components=1 "${members[@]}"
    for f in "${SRC_FILES[@]}"; do [ -f "$KDIR/src.tmp/$f" ] || die "missing $f in source tarball"; done
    mv "$KDIR/src.tmp" "$KDIR/src"
    stamp_set "$KDIR/.stamp-src" "$KEY"
fi

# --- v4l2loopback's source (an MJPEG-only camera for the mjpeg scenario) -----
# Debian ships it as DKMS source only; build-v4l2loopback.sh compiles it.
LOOPBACK_VER=$(apt-cache show --no-all-versions v4l2loopback-dkms 2>/dev/null | sed -n 's/^Version: //p' | head -n1)
[ -n "$LOOPBACK_VER" ] || die "v4l2loopback-dkms is unknown to apt"
DEB_LOOPBACK=$(download v4l2loopback-dkms "$LOOPBACK_VER")
KEY=$(fingerprint "$SELF" "${DEB_LOOPBACK##*/}")
if ! stamp_ok "$KDIR/.stamp-v4l2loopback-src" "$KEY" || [ ! -f "$KDIR/v4l2loopback-src/v4l2loopback.c" ]; then
    log "unpacking $(basename "$DEB_LOOPBACK")"
    rm -rf "$KDIR/v4l2loopback-src" "$KDIR/v4l2loopback-src.tmp"
    dpkg-deb -x "$DEB_LOOPBACK" "$KDIR/v4l2loopback-src.tmp"
    src=$(find "$KDIR/v4l2loopback-src.tmp/usr/src" -mindepth 1 -maxdepth 1 -type d -name 'v4l2loopback-*' | head -n1)
    [ -n "$src" ] && [ -f "$src/v4l2loopback.c" ] || die "no usr/src/v4l2loopback-*/v4l2loopback.c in $DEB_LOOPBACK"
    mv "$src" "$KDIR/v4l2loopback-src"
    rm -rf "$KDIR/v4l2loopback-src.tmp"
    stamp_set "$KDIR/.stamp-v4l2loopback-src" "$KEY"
fi

stamp_set "$KDIR/.stamp-fetch" "$KPKGVER"
ENV_NEW=$(printf 'KVER=%s\nKPKGVER=%s\nKSERIES=%s\n' "$KVER" "$KPKGVER" "$KSERIES")
if [ ! -f "$VM_CACHE/kernel.env" ] || [ "$(cat "$VM_CACHE/kernel.env")" != "$ENV_NEW" ]; then
    printf '%s\n' "$ENV_NEW" >"$VM_CACHE/kernel.env.tmp"
    mv -f "$VM_CACHE/kernel.env.tmp" "$VM_CACHE/kernel.env"
fi
log "ready: $KDIR"
