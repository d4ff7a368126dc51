#!/usr/bin/env bash
# Fetch and unpack the Debian kernel the VM rig boots, plus what the
# out-of-tree gpio-sim and v4l2loopback builds need. Idempotent: a re-run is a no-op.
#
#   Tests/vm/fetch-kernel.sh
#
# - installs the host packages the rig needs (apt-get), if missing;
# - uses the kernel the cache already holds whole (kernel.env, its .debs), so a
#   warm machine never depends on what the archive still offers;
# - otherwise picks one from what the archive offers today: the newest
#   linux-image-amd64 (or TS_GATE_KERNEL_VERSION=<its version> to pin) whose
#   linux-image-KVER, linux-headers-ABI-amd64 and linux-headers-ABI-common all
#   exist at one version (one ABI); linux-kbuild-SERIES and linux-source-SERIES
#   at that version, or the nearest one the archive has (same upstream
#   release first); v4l2loopback-dkms (module source) at its newest. It logs
#   each version chosen; one that cannot be had is named with the versions on
#   offer, after one `apt-get update` and a second try;
# - unpacks them into the cache and runs depmod; the headers' Makefile is
#   pointed at the unpacked -common tree; only the source files the rig
#   compiles are taken out of linux-source's tarball.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Files the rig needs from the kernel source tarball (paths inside the tree).
SRC_FILES=(drivers/gpio/gpio-sim.c drivers/gpio/gpiolib.h kernel/irq/irq_sim.c drivers/i2c/i2c-stub.c)

ensure_packages "${HOST_PACKAGES[@]}"
take_lock fetch

# --- versions the archive offers ---------------------------------------------
# Debian's security archive keeps only a few uploads of each kernel package and
# drops them independently (one day linux-kbuild-6.1 had lost 6.1.192-2 while
# the image still had it), so nothing here asks for an exact version blindly.

# offered PKG: every version apt's lists hold, newest first, one a line.
offered() {
    apt-cache madison "$1" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }' |
        awk '!seen[$0]++' | sort_versions
}
# sort_versions: Debian version order, newest first (dpkg decides each pair).
sort_versions() {
    local v out=() i j t
    while IFS= read -r v; do [ -n "$v" ] && out+=("$v"); done
    for ((i = 1; i < ${#out[@]}; i++)); do
        t=${out[i]}; j=$i
        while ((j > 0)) && dpkg --compare-versions "$t" gt "${out[j-1]}"; do out[j]=${out[j-1]}; j=$((j - 1)); done
        out[j]=$t
    done
    [ ${#out[@]} -eq 0 ] || printf '%s\n' "${out[@]}"
}
# offers PKG VERSION: true if the archive has PKG at exactly VERSION.
offers() { offered "$1" | grep -xF "$2" >/dev/null; }   # not -q: an early exit would fail the pipe
# offer_list PKG: "a, b, c" or "none", for error lines.
offer_list() { local l; l=$(offered "$1" | paste -sd, - | sed 's/,/, /g'); echo "${l:-none}"; }

# nearest PKG WANT: the version of PKG closest to WANT: WANT itself; else one of
# the same upstream release (6.1.192-3 for 6.1.192-2), the next revision up
# first (a rebuild or fix of the same code); else the newest below WANT, else
# the oldest above it. Prints nothing when the archive has no PKG at all.
nearest() {
    local pkg=$1 want=$2 up=${2%-*} v best_same_up="" best_same_down="" below="" above=""
    while IFS= read -r v; do
        [ "$v" = "$want" ] && { echo "$v"; return 0; }
        if [ "${v%-*}" = "$up" ]; then
            if dpkg --compare-versions "$v" gt "$want"; then best_same_up=$v
            elif [ -z "$best_same_down" ]; then best_same_down=$v; fi
        elif dpkg --compare-versions "$v" lt "$want"; then
            [ -n "$below" ] || below=$v
        else
            above=$v
        fi
    done < <(offered "$pkg")       # newest first: the last "up" kept is the nearest
    for v in "$best_same_up" "$best_same_down" "$below" "$above"; do
        [ -n "$v" ] && { echo "$v"; return 0; }
    done
    return 0
}

# --- resolve the kernel -----------------------------------------------------
# A kernel the cache already holds whole is used as it is, without asking the
# archive: it may have dropped those versions since.
cached_kernel_ok() {
    [ -f "$VM_CACHE/kernel.env" ] || return 1
    local KVER="" KPKGVER="" KSERIES="" KBUILDVER="" KSRCVER="" LOOPBACKVER="" TS_GATE_KERNEL_META=""
    # shellcheck disable=SC1091
    . "$VM_CACHE/kernel.env"
    [ -n "$KBUILDVER" ] && [ -n "$KSRCVER" ] && [ -n "$LOOPBACKVER" ] || return 1
    [ -z "${TS_GATE_KERNEL_VERSION:-}" ] || [ "${TS_GATE_KERNEL_META:-}" = "$TS_GATE_KERNEL_VERSION" ] || return 1
    stamp_ok "$VM_CACHE/kernels/$KVER/.stamp-fetch" "$KPKGVER" || return 1
    CACHED_ENV=$(cat "$VM_CACHE/kernel.env")
}

# The metapackage's versions to try, newest first (or the pinned one), each
# with its "Depends: linux-image-6.1.0-56-amd64 (= 6.1.192-2)".
meta_versions() {
    if [ -n "${TS_GATE_KERNEL_VERSION:-}" ]; then echo "$TS_GATE_KERNEL_VERSION"; else offered linux-image-amd64; fi
}
image_dep() {
    apt-cache show "linux-image-amd64=$1" 2>/dev/null | sed -n 's/^Depends: //p' | head -n1 | tr ',' '\n' |
        sed -n 's/^ *\(linux-image-[^ ]*\) (= \([^)]*\)).*/\1 \2/p' | head -n1
}

# resolve: sets IMAGE_PKG KPKGVER KVER FLAVOUR ABI KSERIES KBUILDVER KSRCVER
# LOOPBACKVER from what the archive offers now. The image and both header
# packages are one ABI and must share one version exactly; kbuild (the
# build tools) and source (three .c files) take the nearest version of the
# same series. Returns 1 with REASON set when nothing fits.
resolve() {
    local meta dep tried=""
    REASON=""
    IMAGE_PKG=""
    while IFS= read -r meta; do
        dep=$(image_dep "$meta")
        [ -n "$dep" ] || { tried+=" linux-image-amd64=$meta (no image dependency)"; continue; }
        local img=${dep% *} ver=${dep#* } kver abi flavour
        kver=${img#linux-image-}; flavour=${kver##*-}; abi=${kver%-"$flavour"}
        case "$kver" in *-*-*) ;; *) tried+=" $img (unexpected name)"; continue ;; esac
        local p missing=""
        for p in "$img" "linux-headers-$abi-$flavour" "linux-headers-$abi-common"; do
            offers "$p" "$ver" || missing+=" $p=$ver (offered: $(offer_list "$p"))"
        done
        if [ -n "$missing" ]; then tried+=" [$kver:$missing]"; continue; fi
        IMAGE_PKG=$img; KPKGVER=$ver; KVER=$kver; FLAVOUR=$flavour; ABI=$abi
        TS_GATE_KERNEL_META=$meta
        break
    done < <(meta_versions)
    if [ -z "$IMAGE_PKG" ]; then
        REASON="no linux-image-amd64 version${TS_GATE_KERNEL_VERSION:+ =$TS_GATE_KERNEL_VERSION} whose image and headers the archive offers at one version (offered linux-image-amd64: $(offer_list linux-image-amd64));${tried:- nothing to try}"
        return 1
    fi
    KSERIES=$(echo "$ABI" | cut -d. -f1,2)          # 6.1
    KBUILDVER=$(nearest "linux-kbuild-$KSERIES" "$KPKGVER")
    [ -n "$KBUILDVER" ] || { REASON="linux-kbuild-$KSERIES: the archive offers no version (wanted $KPKGVER or the nearest)"; return 1; }
    KSRCVER=$(nearest "linux-source-$KSERIES" "$KPKGVER")
    [ -n "$KSRCVER" ] || { REASON="linux-source-$KSERIES: the archive offers no version (wanted $KPKGVER or the nearest)"; return 1; }
    LOOPBACKVER=$(offered v4l2loopback-dkms | head -n1)
    [ -n "$LOOPBACKVER" ] || { REASON="v4l2loopback-dkms: the archive offers no version"; return 1; }
}

# --- download ---------------------------------------------------------------
# download PKG VERSION -> prints the path of the cached .deb; returns 1 (with
# the reason logged) when apt cannot get it, so the caller may re-resolve.
download() {
    local pkg=$1 ver=$2 stamp f tmp n
    stamp=$DEBS/.ok-${pkg}_${ver//:/%3a}
    if [ -f "$stamp" ] && [ -f "$DEBS/$(cat "$stamp")" ]; then
        echo "$DEBS/$(cat "$stamp")"
        return 0
    fi
    # A subshell's (this runs in $(...)): it removes its own temporary directory.
    tmp=$(mktemp -d "$DEBS/.dl.XXXXXX")
    log "downloading $pkg=$ver"
    if ! (cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$pkg=$ver" </dev/null >"$tmp/.log" 2>&1); then
        log "cannot download $pkg=$ver: $(grep -m1 '^E:' "$tmp/.log" || tail -n1 "$tmp/.log"); the archive offers: $(offer_list "$pkg")"
        rm -rf "$tmp"
        return 1
    fi
    n=$(find "$tmp" -maxdepth 1 -name '*.deb' | wc -l)
    [ "$n" = 1 ] || { log "apt-get download $pkg=$ver left $n .deb files"; rm -rf "$tmp"; return 1; }
    f=$(basename "$(find "$tmp" -maxdepth 1 -name '*.deb')")
    dpkg-deb --info "$tmp/$f" >/dev/null || { rm -rf "$tmp"; die "corrupt download $f"; }
    mv -f "$tmp/$f" "$DEBS/$f"
    rm -rf "$tmp"
    stamp_set "$stamp" "$f"
    echo "$DEBS/$f"
}

# fetch_debs: the six .debs of the resolved versions into the cache.
fetch_debs() {
    DEB_IMAGE=$(download "$IMAGE_PKG" "$KPKGVER") &&
    DEB_HDR=$(download "linux-headers-$ABI-$FLAVOUR" "$KPKGVER") &&
    DEB_HDR_COMMON=$(download "linux-headers-$ABI-common" "$KPKGVER") &&
    DEB_KBUILD=$(download "linux-kbuild-$KSERIES" "$KBUILDVER") &&
    DEB_SOURCE=$(download "linux-source-$KSERIES" "$KSRCVER") &&
    DEB_LOOPBACK=$(download v4l2loopback-dkms "$LOOPBACKVER")
}

DEBS=$VM_CACHE/debs
mkdir -p "$DEBS"
CACHED_ENV=""
FROM_CACHE=""
if cached_kernel_ok; then
    # shellcheck disable=SC1090
    . <(echo "$CACHED_ENV")
    FLAVOUR=${KVER##*-}; ABI=${KVER%-"$FLAVOUR"}; IMAGE_PKG=linux-image-$KVER
    if fetch_debs; then
        FROM_CACHE=1
        log "kernel $KVER from the cache: image and headers $KPKGVER, kbuild $KBUILDVER, source $KSRCVER, v4l2loopback $LOOPBACKVER"
    else
        log "the cache's kernel $KVER lacks .debs the archive no longer offers: choosing again"
    fi
fi
if [ -z "$FROM_CACHE" ]; then
    # Stale package lists name versions the archive has dropped: on any miss,
    # refresh them once and resolve again.
    for attempt in 1 2; do
        if resolve; then
            log "kernel $KVER: image and headers $KPKGVER; linux-kbuild-$KSERIES $KBUILDVER; linux-source-$KSERIES $KSRCVER; v4l2loopback-dkms $LOOPBACKVER"
            [ "$KBUILDVER" = "$KPKGVER" ] || log "linux-kbuild-$KSERIES $KPKGVER is not offered: using the nearest, $KBUILDVER"
            [ "$KSRCVER" = "$KPKGVER" ] || log "linux-source-$KSERIES $KPKGVER is not offered: using the nearest, $KSRCVER"
            fetch_debs && break
            REASON="a package the lists named could not be downloaded (above)"
        fi
        [ "$attempt" = 1 ] || die "$REASON"
        log "$REASON; refreshing package lists (apt-get update) and resolving again"
        apt-get update -q </dev/null >&2 || die "apt-get update failed"
    done
fi
KDIR=$VM_CACHE/kernels/$KVER
mkdir -p "$KDIR"

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
ENV_NEW=$(printf 'KVER=%s\nKPKGVER=%s\nKSERIES=%s\nKBUILDVER=%s\nKSRCVER=%s\nLOOPBACKVER=%s\nTS_GATE_KERNEL_META=%s\n' \
    "$KVER" "$KPKGVER" "$KSERIES" "$KBUILDVER" "$KSRCVER" "$LOOPBACKVER" "${TS_GATE_KERNEL_META:-}")
if [ ! -f "$VM_CACHE/kernel.env" ] || [ "$(cat "$VM_CACHE/kernel.env")" != "$ENV_NEW" ]; then
    printf '%s\n' "$ENV_NEW" >"$VM_CACHE/kernel.env.tmp"
    mv -f "$VM_CACHE/kernel.env.tmp" "$VM_CACHE/kernel.env"
fi
log "ready: $KDIR"
