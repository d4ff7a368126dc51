#!/usr/bin/env bash
# Build the target sysroot for the Embedded Swift firmware from Debian 12
# packages: glibc (static libc.a), kernel UAPI headers, libgcc, and the static
# archives + headers of the libraries the C shim (Sources/CGateShim) uses.
#
# usage: image/sysroot.sh aarch64 OUTDIR
#
# - adds the dpkg foreign architecture (arm64) if missing; apt-get update only
#   when apt has no package list for it yet;
# - takes each package's candidate version today (after one `apt-get update`
#   and a second try when the lists name a version the archive has dropped;
#   failing that, the last whole set the cache holds; else it names the
#   package and the versions on offer);
# - downloads the .debs with `apt-get download` into a cache OUTSIDE the repo,
#   ${TS_GATE_CACHE:-$HOME/.cache/ts-gate}/debs/<debarch>, so fresh clones on
#   the same machine reuse them;
# - `dpkg -x`es each into a staging dir, writes a stamp, then moves it to OUTDIR.
# A second run with the same package set is a no-op (the stamp matches).
# Must run as root (dpkg --add-architecture, apt-get update) unless the
# architecture and its package lists are already there.
set -euo pipefail

die() { echo "sysroot.sh: error: $*" >&2; exit 1; }
say() { echo "sysroot.sh: $*"; }

[ $# -eq 2 ] || die "usage: $0 aarch64 OUTDIR"
ARCH=$1
OUTDIR=$2

case "$ARCH" in
    aarch64|arm64) ARCH=aarch64; DEBARCH=arm64; MULTIARCH=aarch64-linux-gnu ;;
    *) die "unsupported architecture '$ARCH' (supported: aarch64)" ;;
esac

# Debian 12 (bookworm) package names. Runtime packages are listed next to their
# -dev package because the -dev symlinks point into them; only the static
# archives (.a) and headers are used by the link.
# To add a library: append its -dev package (and its runtime package) here,
# then add -l<name> to LIBS in image/toolset.sh.
PACKAGES=(
    libc6 libc6-dev linux-libc-dev
    libgcc-12-dev libgcc-s1
    libgpiod-dev libgpiod2
    libbluetooth-dev libbluetooth3
    libi2c-dev libi2c0
    libv4l-dev libv4l-0 libv4lconvert0
    libjpeg62-turbo-dev libjpeg62-turbo
    zlib1g-dev zlib1g
)

CACHE=${TS_GATE_CACHE:-${HOME:-/root}/.cache/ts-gate}/debs/$DEBARCH
STAMP_NAME=.ts-gate-sysroot.stamp
STAMP=$OUTDIR/$STAMP_NAME

export DEBIAN_FRONTEND=noninteractive
APT_OPTS=(-q -o Dpkg::Use-Pty=0)
# apt drops to the _apt user to download; that user cannot write to root's
# cache dir, so as root download unsandboxed (avoids a warning per package).
[ "$(id -u)" -eq 0 ] && APT_OPTS+=(-o APT::Sandbox::User=root)

# ---- 1. dpkg architecture and package lists --------------------------------
if [ "$(dpkg --print-architecture)" != "$DEBARCH" ] &&
   ! dpkg --print-foreign-architectures | grep -qx "$DEBARCH"; then
    say "adding dpkg architecture $DEBARCH"
    dpkg --add-architecture "$DEBARCH"
fi

have_lists() { apt-cache show --no-all-versions "libc6-dev:$DEBARCH" >/dev/null 2>&1; }
if ! have_lists; then
    say "apt-get update (no $DEBARCH package lists yet)"
    apt-get "${APT_OPTS[@]}" update >/dev/null
    have_lists || die "apt has no libc6-dev:$DEBARCH after apt-get update; check /etc/apt/sources.list*"
fi

# ---- 2. resolve versions and download (only what is missing) ---------------
# The candidates of apt's lists today, so a shipped firmware links the libc
# with the archive's fixes. Lists name versions the archive may since have
# dropped: on a miss, refresh them once and resolve again. If the archive
# still cannot give a whole set, the last whole set this cache built a
# sysroot from is used (it is consistent: one day's candidates).
mkdir -p "$CACHE"
SET_FILE=$CACHE/.sysroot-$ARCH.set      # lines: pkg=version file.deb
offered() { apt-cache madison "$1:$DEBARCH" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }' | paste -sd, - | sed 's/,/, /g'; }
cached_deb() { compgen -G "$CACHE/${1}_${2//:/%3a}_*.deb" | head -n1 || true; }

# resolve: WANT=(pkg=version ...) from the candidates, or REASON.
resolve() {
    local pkg ver
    WANT=()
    for pkg in "${PACKAGES[@]}"; do
        ver=$(apt-cache show --no-all-versions "$pkg:$DEBARCH" 2>/dev/null | sed -n 's/^Version: //p' | head -n1) || true
        [ -n "$ver" ] || { REASON="$pkg:$DEBARCH: apt knows no version of it"; return 1; }
        WANT+=("$pkg=$ver")
    done
}
# fetch: DEBS=(path ...) for WANT, downloading what the cache lacks, or REASON.
fetch() {
    local entry pkg ver match missing=() bad=""
    DEBS=()
    for entry in "${WANT[@]}"; do
        pkg=${entry%%=*}; ver=${entry#*=}
        [ -n "$(cached_deb "$pkg" "$ver")" ] || missing+=("$pkg:$DEBARCH=$ver")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        say "downloading ${#missing[@]} package(s) into $CACHE"
        (cd "$CACHE" && apt-get "${APT_OPTS[@]}" download "${missing[@]}" >/dev/null 2>&1) || true
    else
        say "all ${#WANT[@]} packages already in $CACHE"
    fi
    for entry in "${WANT[@]}"; do
        pkg=${entry%%=*}; ver=${entry#*=}
        match=$(cached_deb "$pkg" "$ver")
        if [ -n "$match" ]; then DEBS+=("$match")
        else bad+="; $pkg:$DEBARCH $ver cannot be downloaded (the archive offers: $(offered "$pkg"))"; fi
    done
    [ -z "$bad" ] || { REASON=${bad#; }; return 1; }
}
# from_set_file: WANT and DEBS from the last whole set, if every .deb is here
# and the package names are this script's.
from_set_file() {
    local line names=()
    [ -f "$SET_FILE" ] || return 1
    WANT=(); DEBS=()
    while read -r line; do
        WANT+=("${line%% *}"); DEBS+=("$CACHE/${line#* }"); names+=("${line%%=*}")
        [ -f "$CACHE/${line#* }" ] || return 1
    done <"$SET_FILE"
    [ "${names[*]}" = "${PACKAGES[*]}" ]
}

ok=""
for attempt in 1 2; do
    if resolve && fetch; then ok=1; break; fi
    [ "$attempt" = 1 ] || break
    say "$REASON; refreshing package lists (apt-get update) and resolving again"
    apt-get "${APT_OPTS[@]}" update >/dev/null || { say "apt-get update failed"; break; }
done
if [ -z "$ok" ]; then
    from_set_file || die "$REASON"
    say "$REASON; using the last whole set in $CACHE instead ($(basename "${DEBS[0]}"), ...)"
fi
for i in "${!WANT[@]}"; do printf '%s %s\n' "${WANT[i]}" "$(basename "${DEBS[i]}")"; done >"$SET_FILE.tmp"
mv -f "$SET_FILE.tmp" "$SET_FILE"
say "packages: ${WANT[*]}"

STAMP_TEXT=$(printf '%s\n' "sysroot $ARCH" "${WANT[@]}")
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$STAMP_TEXT" ]; then
    say "$OUTDIR is up to date (${#WANT[@]} packages)"
    exit 0
fi

# ---- 4. extract into a staging dir, then swap it in ------------------------
if [ -e "$OUTDIR" ] && [ ! -f "$STAMP" ] && [ -n "$(ls -A "$OUTDIR" 2>/dev/null)" ]; then
    die "$OUTDIR exists, is not empty and was not made by this script; remove it first"
fi
mkdir -p "$(dirname "$OUTDIR")"
STAGING=$(mktemp -d "${OUTDIR%/}.partial.XXXXXX")
trap 'rm -rf "$STAGING"' EXIT
say "extracting ${#DEBS[@]} packages into $OUTDIR"
for deb in "${DEBS[@]}"; do
    dpkg -x "$deb" "$STAGING"
done
# Sanity: what the firmware link and the C shim need.
for f in usr/lib/$MULTIARCH/libc.a usr/lib/$MULTIARCH/crt1.o \
         usr/lib/gcc/$MULTIARCH/12/crtbeginT.o usr/lib/gcc/$MULTIARCH/12/libgcc.a \
         usr/include/$MULTIARCH/asm/ioctl.h usr/include/linux/videodev2.h \
         usr/include/gpiod.h usr/lib/$MULTIARCH/libgpiod.a \
         usr/include/bluetooth/hci.h usr/lib/$MULTIARCH/libbluetooth.a \
         usr/include/linux/i2c-dev.h usr/lib/$MULTIARCH/libi2c.a \
         usr/include/sound/asound.h usr/lib/$MULTIARCH/libv4l2.a \
         usr/lib/$MULTIARCH/libjpeg.a usr/lib/$MULTIARCH/libz.a; do
    [ -e "$STAGING/$f" ] || die "sysroot is missing $f"
done
chmod 755 "$STAGING"
printf '%s\n' "$STAMP_TEXT" > "$STAGING/$STAMP_NAME"
rm -rf "$OUTDIR"
mv "$STAGING" "$OUTDIR"
trap - EXIT
say "done: $OUTDIR ($(du -sh "$OUTDIR" | cut -f1))"
