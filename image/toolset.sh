#!/usr/bin/env bash
# Write the SwiftPM toolset (schemaVersion 1.0) for an Embedded Swift firmware
# build: every Embedded flag lives here, none in Package.swift.
#
# usage: image/toolset.sh ARCH SYSROOT OUTFILE
#   ARCH     aarch64 | x86_64
#   SYSROOT  aarch64: the Debian sysroot made by image/sysroot.sh
#            x86_64:  "/" for the host (its static libc.a, libgpiod.a, ...)
#                     or a sysroot with the same layout
#   OUTFILE  the JSON file to write (paths in it are absolute)
#
# Used as: swift build -c release --toolset OUTFILE
#          [--triple aarch64-none-none-elf] (aarch64 only)
set -euo pipefail

die() { echo "toolset.sh: error: $*" >&2; exit 1; }

[ $# -eq 3 ] || die "usage: $0 ARCH SYSROOT OUTFILE"
ARCH=$1
SYSROOT=$2
OUTFILE=$3

case "$ARCH" in
    aarch64|arm64) ARCH=aarch64; MULTIARCH=aarch64-linux-gnu; EMBEDDED_TRIPLE=aarch64-none-none-elf ;;
    x86_64|amd64)  ARCH=x86_64;  MULTIARCH=x86_64-linux-gnu;  EMBEDDED_TRIPLE=x86_64-unknown-linux-gnu ;;
    *) die "unsupported architecture '$ARCH' (aarch64, x86_64)" ;;
esac

SWIFTC=$(command -v swiftc) || die "swiftc not on PATH"
TOOLCHAIN=$(dirname "$(dirname "$(readlink -f "$SWIFTC")")")
[ -d "$SYSROOT" ] || die "sysroot $SYSROOT does not exist"
SYSROOT=$(cd "$SYSROOT" && pwd -P)
# "/" + "/usr/lib" would give "//usr/lib": strip the trailing slash.
SR=${SYSROOT%/}

UNICODE_TABLES=$TOOLCHAIN/lib/swift/embedded/$EMBEDDED_TRIPLE/libswiftUnicodeDataTables.a
[ -f "$UNICODE_TABLES" ] || die "missing $UNICODE_TABLES"

LIBDIR=$SR/usr/lib/$MULTIARCH
GCCDIR=$SR/usr/lib/gcc/$MULTIARCH/12
[ -f "$LIBDIR/libc.a" ] || die "no static libc at $LIBDIR/libc.a (aarch64: run image/sysroot.sh; x86_64: apt-get install libc6-dev)"

# Static libraries for the C shim's headers, in link order (an archive only
# contributes the members that are referenced, so unused ones cost nothing).
#   gpiod            <gpiod.h>            libgpiod-dev (v1.6 API)
#   bluetooth        <bluetooth/*.h>      libbluetooth-dev
#   i2c              <i2c/smbus.h>        libi2c-dev
#   v4l2 v4lconvert  <libv4l2.h>          libv4l-dev (v4lconvert needs jpeg, m)
#   jpeg                                  libjpeg62-turbo-dev
#   z                <zlib.h>             zlib1g-dev
#   m pthread dl rt                       libc6-dev
# <sound/asound.h>, <linux/videodev2.h>, <linux/i2c-dev.h> are kernel UAPI
# (linux-libc-dev): no library. libasound2-dev has no static archive, so ALSA
# is reached through the kernel PCM ioctls instead.
# To add a library: add its -dev (+ runtime) package to PACKAGES in
# image/sysroot.sh (aarch64) or apt-get install it on the host (x86_64), then
# add -l<name> here before the libc6 group.
LIBS=(gpiod bluetooth i2c v4l2 v4lconvert jpeg z m pthread dl rt)
for lib in "${LIBS[@]}"; do
    [ -f "$LIBDIR/lib$lib.a" ] || die "missing static archive $LIBDIR/lib$lib.a (-l$lib)"
done

# Build the argument lists.
# No -D_GNU_SOURCE: CGateShim.h needs nothing GNU-only, and the host build
# (plain `swift build`) does not define it either, so both builds see the same
# C declarations. If a GNU-only call is ever needed, add it to CC below (the
# host build then needs the same define, e.g. in the shim header itself).
# -function-sections: the link already runs with --gc-sections (the driver
# adds it), but a Swift object is otherwise one .text section, kept whole when
# any one of its functions is called: every public function the firmware
# never calls (host tools' API, unused accessors, stdlib specialisations)
# stayed in. One section per function lets the linker drop them; the aarch64
# firmware went from 2,621,072 to 1,739,296 bytes, x86_64 from 3,170,608 to
# 2,161,264 (clean builds: SwiftPM does not rebuild objects when only the
# toolset's flags change; firmware.sh removes a build made with another one).
SWIFT=(-enable-experimental-feature Embedded -Osize -Xfrontend -function-sections)
CC=()
LINK=()
if [ "$ARCH" = aarch64 ]; then
    # The Swift target is aarch64-none-none-elf (the Embedded stdlib's triple);
    # the C side (ClangImporter, C targets, link) is told it is Linux/glibc.
    INC=(-isystem "$SR/usr/include/$MULTIARCH" -isystem "$SR/usr/include")
    CC+=("--target=$MULTIARCH" "--sysroot=$SR" "${INC[@]}")
    LINK+=("--target=$MULTIARCH" "--sysroot=$SR")
    LINK+=(-fuse-ld=lld -static "-B$GCCDIR" "-L$GCCDIR" "-L$LIBDIR")
else
    INC=()
    if [ "$SR" != "" ]; then
        INC=(-isystem "$SR/usr/include/$MULTIARCH" -isystem "$SR/usr/include")
        CC+=("--sysroot=$SR" "${INC[@]}")
        LINK+=("--sysroot=$SR" "-L$LIBDIR")
    fi
    # x86-64-v2, as the host build (Package.swift says why); `ts-gate`
    # refuses to start on an older CPU.
    SWIFT+=(-target-cpu nehalem)
    # swift-driver adds -pie for Linux executables; with -static clang ignores
    # it and warns "argument unused during compilation: '-pie'": harmless.
    LINK+=(-fuse-ld=lld -static)
fi
LINK+=("$UNICODE_TABLES")
for lib in "${LIBS[@]}"; do LINK+=("-l$lib"); done

for a in "${CC[@]}"; do SWIFT+=(-Xcc "$a"); done
for a in "${LINK[@]}"; do SWIFT+=(-Xclang-linker "$a"); done
# C targets (CGateShim's .c file): same target/sysroot, small code.
# GATE_FIRMWARE_LINK_TRIM turns on Sources/CFirmwareLinkTrim's stand-ins.
CC+=(-Os -ffunction-sections -fdata-sections -DGATE_FIRMWARE_LINK_TRIM)

json_array() {
    local first=1 a
    printf '['
    for a in "$@"; do
        [ $first -eq 1 ] || printf ','
        first=0
        a=${a//\\/\\\\}; a=${a//\"/\\\"}
        printf '\n      "%s"' "$a"
    done
    printf '\n    ]'
}

mkdir -p "$(dirname "$OUTFILE")"
TMP=$(mktemp "$OUTFILE.XXXXXX")
{
    printf '{\n  "schemaVersion": "1.0",\n'
    printf '  "swiftCompiler": {\n    "extraCLIOptions": %s\n  },\n' "$(json_array "${SWIFT[@]}")"
    printf '  "cCompiler": {\n    "extraCLIOptions": %s\n  }\n' "$(json_array "${CC[@]}")"
    printf '}\n'
} > "$TMP"
# Leave an identical file untouched (its mtime then does not trigger rebuilds).
if cmp -s "$TMP" "$OUTFILE"; then
    rm -f "$TMP"
    echo "toolset.sh: $OUTFILE is up to date ($ARCH, sysroot $SYSROOT)"
else
    mv "$TMP" "$OUTFILE"
    echo "toolset.sh: wrote $OUTFILE ($ARCH, sysroot $SYSROOT)"
fi
