#!/usr/bin/env bash
# Build the statically linked Embedded Swift firmware for one architecture.
#
# usage: image/firmware.sh ARCH [PACKAGE_DIR [PRODUCT]]
#   ARCH         aarch64 | x86_64
#   PACKAGE_DIR  the SwiftPM package (default: the current directory, i.e. run
#                from the repo root); build/ and .build-fw-ARCH go inside it
#   PRODUCT      the executable product (default: ts-gate)
#
# Steps: sysroot (aarch64: build/sysroot-aarch64 via image/sysroot.sh; x86_64:
# the host, "/"), build/ARCH-toolset.json via image/toolset.sh, swift build,
# copy to build/ARCH/PRODUCT, strip, check it is statically linked.
# Env: SWIFT_BUILD_JOBS=N passes -j N to swift build (the machine is shared).
set -euo pipefail

die() { echo "firmware.sh: error: $*" >&2; exit 1; }
say() { echo "firmware.sh: $*"; }

if [ $# -lt 1 ] || [ $# -gt 3 ]; then die "usage: $0 ARCH [PACKAGE_DIR [PRODUCT]]"; fi
ARCH=$1
PKG=${2:-.}
PRODUCT=${3:-ts-gate}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)

[ -f "$PKG/Package.swift" ] || die "no Package.swift in $PKG (run from the repo root or pass PACKAGE_DIR)"
cd "$PKG"
PKG=$(pwd -P)

TRIPLE_ARGS=()
case "$ARCH" in
    aarch64|arm64)
        ARCH=aarch64
        SYSROOT=$PKG/build/sysroot-aarch64
        "$HERE/sysroot.sh" aarch64 "$SYSROOT"
        TRIPLE_ARGS=(--triple aarch64-none-none-elf) ;;
    x86_64|amd64)
        ARCH=x86_64
        [ "$(uname -m)" = x86_64 ] || die "x86_64 firmware uses the host sysroot; this host is $(uname -m)"
        SYSROOT=/ ;;
    *) die "unsupported architecture '$ARCH' (aarch64, x86_64)" ;;
esac

SWIFTC=$(command -v swiftc) || die "swiftc not on PATH"
TOOLCHAIN=$(dirname "$(dirname "$(readlink -f "$SWIFTC")")")
TOOLSET=$PKG/build/$ARCH-toolset.json
"$HERE/toolset.sh" "$ARCH" "$SYSROOT" "$TOOLSET"

# SwiftPM does not rebuild objects when only the toolset's flags change, so
# a build directory made with another toolset is removed first (its objects
# would be linked as they are). The toolset it was made with is kept in it.
BUILD_DIR=$PKG/.build-fw-$ARCH
if [ -d "$BUILD_DIR" ] && ! cmp -s "$TOOLSET" "$BUILD_DIR/toolset.json"; then
    say "the toolset differs from the one $BUILD_DIR was built with: removing it"
    rm -rf "$BUILD_DIR"
fi

BUILD_ARGS=(-c release --product "$PRODUCT" --build-path "$BUILD_DIR"
            "${TRIPLE_ARGS[@]}" --toolset "$TOOLSET")
[ -n "${SWIFT_BUILD_JOBS:-}" ] && BUILD_ARGS+=(-j "$SWIFT_BUILD_JOBS")

# Package.swift leaves its host-only flags out of a firmware build.
export TS_GATE_FIRMWARE=1
say "swift build ${BUILD_ARGS[*]}"
swift build "${BUILD_ARGS[@]}"
BIN_DIR=$(swift build "${BUILD_ARGS[@]}" --show-bin-path)
[ -f "$BIN_DIR/$PRODUCT" ] || die "swift build produced no $BIN_DIR/$PRODUCT"
cp "$TOOLSET" "$BUILD_DIR/toolset.json"

OUT=$PKG/build/$ARCH/$PRODUCT
mkdir -p "$(dirname "$OUT")"
cp "$BIN_DIR/$PRODUCT" "$OUT.unstripped"
"$TOOLCHAIN/bin/llvm-objcopy" --strip-all "$OUT.unstripped" "$OUT.tmp"
mv "$OUT.tmp" "$OUT"

FILE_LINE=$(file -b "$OUT")
SIZE=$(stat -c %s "$OUT")
say "$OUT: $SIZE bytes (stripped)"
say "file: $FILE_LINE"
case "$FILE_LINE" in
    *"statically linked"*) ;;
    *) die "$OUT is NOT statically linked: $FILE_LINE" ;;
esac
case "$ARCH:$FILE_LINE" in
    aarch64:*"ARM aarch64"*|x86_64:*"x86-64"*) ;;
    *) die "$OUT has the wrong machine type for $ARCH: $FILE_LINE" ;;
esac
