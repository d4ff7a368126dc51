#!/usr/bin/env bash
# Build the initramfs that runs one scenario in the VM.
#
#   Tests/vm/make-initramfs.sh NAME OUT.cpio.gz [EXTRA_FILES...]
#
# OUT is two concatenated gzip'd newc cpio archives (the kernel unpacks both):
#  - a base archive, shared by all scenarios and rebuilt only when its inputs
#    change (build/vm/initramfs-base/base.cpio.gz): busybox-static, the
#    modules of vivid, i2c-dev + i2c-stub, gpio-sim (out of tree), snd-aloop
#    (+ snd-dummy) and hci_vhci + the crypto/af_alg chain btvirt needs (all
#    resolved with modprobe --show-depends, depmod'ed in place), the guest
#    tools with their ldd libraries, /usr/share/alsa, and /init;
#  - a small per-scenario archive: /scenarios/NAME.sh, lib.sh and box.sh
#    (from Tests/vm/scenarios/), /etc/rig-test, and EXTRA_FILES in /bin (a
#    dynamically linked extra gets its ldd libraries too).
#
# /init mounts proc, sysfs, devtmpfs, devpts, tmpfs and configfs, runs
# /scenarios/NAME.sh (NAME from rig.test= on the kernel command line, else
# /etc/rig-test) under a timeout (rig.timeout=, seconds), prints
# "VERDICT NAME PASS" or "VERDICT NAME FAIL <reason>" and powers off.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -ge 2 ] || die "usage: $0 NAME OUT.cpio.gz [EXTRA_FILES...]"
NAME=$1
OUT=$2
shift 2
EXTRAS=("$@")
[[ $NAME =~ ^[A-Za-z0-9_.-]+$ ]] || die "bad scenario name '$NAME'"
SCENARIO=$VM_DIR/scenarios/$NAME.sh
[ -f "$SCENARIO" ] || die "no scenario $SCENARIO"
for f in "${EXTRAS[@]}"; do [ -f "$f" ] || [ -d "$f" ] || die "no extra file $f"; done

"$VM_DIR/build-gpio-sim.sh"
"$VM_DIR/build-v4l2loopback.sh"
load_kernel_env

# Modules of the five drivers (dependencies are added by modprobe).
# btvirt: hci_vhci's chain, plus af_alg algif_hash algif_skcipher (else
# "Failed to open Virtual HCI device") and the drbg chain (ecdh self-test).
MODULES=(
    vivid v4l2loopback
    i2c-dev i2c-stub
    gpio-sim
    snd-aloop snd-dummy
    hci_vhci af_alg algif_hash algif_skcipher
    sha3_generic sha512_generic ctr jitterentropy_rng drbg cmac ecb ecdh_generic
)
# Guest tools, copied with their libraries. Call them by full path in the
# guest: busybox's shell prefers its own applets (i2cget, i2cset...).
TOOLS=(/usr/sbin/i2cset /usr/sbin/i2cget /usr/bin/arecord /usr/bin/aplay /usr/bin/v4l2-ctl
       /usr/bin/btvirt /usr/bin/hciconfig)
OPTIONAL_TOOLS=(/usr/sbin/i2cdetect /usr/sbin/i2cdump /usr/sbin/i2ctransfer
                /usr/bin/amixer /usr/bin/l2test /usr/bin/btmgmt /usr/bin/gatttool /usr/bin/btmon)
TOOL_PACKAGES=(busybox-static i2c-tools alsa-utils bluez bluez-test-tools v4l-utils libc6 libasound2)

SELF=$VM_DIR/${BASH_SOURCE[0]##*/}
mkdir -p "$BUILD_DIR"
exec 8>"$BUILD_DIR/.initramfs.lock"
flock 8

TMPS=()
cleanup() { local t; for t in "${TMPS[@]}"; do rm -rf "$t"; done; }
trap cleanup EXIT

# copy_file SRC STAGE [DEST]: copy (dereferenced) to STAGE/DEST (default: same path)
copy_file() {
    local src=$1 stage=$2 dst=${3:-$1}
    mkdir -p "$stage/$(dirname "$dst")"
    cp -L --preserve=mode "$src" "$stage/$dst"
}
# copy_elf SRC STAGE [DEST]: the file plus the shared libraries ldd lists
copy_elf() {
    local src=$1 stage=$2 dst=${3:-$1} lib
    copy_file "$src" "$stage" "$dst"
    while read -r lib; do
        [ -e "$stage/$lib" ] || copy_file "$lib" "$stage"
    done < <( (ldd "$src" 2>/dev/null || true) |
              awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }')
}
# make_cpio DIR OUT.gz: reproducible newc archive, owned by root
make_cpio() {
    (cd "$1" && find . -mindepth 1 -print0 | LC_ALL=C sort -z |
        cpio --null -o -H newc -R 0:0 --reproducible --quiet) | gzip -n -6 >"$2.tmp"
    mv -f "$2.tmp" "$2"
}

# --- base archive --------------------------------------------------------------
tool_versions=$(dpkg-query -W -f='${Package}=${Version}\n' "${TOOL_PACKAGES[@]}")
BASE=$BUILD_DIR/initramfs-base
KEY=$(fingerprint "$SELF" "$VM_DIR/lib.sh" "$KVER" "$KPKGVER" \
      "$KROOT/lib/modules/$KVER/extra/gpio-sim.ko" "modules: ${MODULES[*]}" "tools: ${TOOLS[*]}" \
      "optional: ${OPTIONAL_TOOLS[*]}" "$tool_versions")
if ! stamp_ok "$BASE/.stamp" "$KEY" || [ ! -f "$BASE/base.cpio.gz" ]; then
    log "building the base initramfs ($KVER)"
    rm -rf "$BASE"
    S=$BASE/root
    mkdir -p "$BASE" "$S"
    (cd "$S" && mkdir -p bin sbin usr/bin usr/sbin lib lib64 usr/lib etc root \
        dev proc sys tmp run mnt scenarios "lib/modules/$KVER")

    # modules
    for m in "${MODULES[@]}"; do
        deps=$(modprobe -d "$KROOT" -S "$KVER" --show-depends "$m") ||
            die "module $m not found for $KVER"
        while read -r kind path _; do
            case $kind in
                insmod) copy_file "$path" "$S" "${path#"$KROOT"}" ;;
                builtin) ;;
                *) die "unexpected modprobe output for $m: $kind $path" ;;
            esac
        done <<<"$deps"
    done
    for f in modules.builtin modules.builtin.modinfo modules.order; do
        cp "$KROOT/lib/modules/$KVER/$f" "$S/lib/modules/$KVER/"
    done
    depmod -b "$S" "$KVER"

    # tools
    for t in "${TOOLS[@]}"; do
        [ -x "$t" ] || die "guest tool $t missing on the host"
        copy_elf "$t" "$S"
    done
    for t in "${OPTIONAL_TOOLS[@]}"; do
        if [ -x "$t" ]; then copy_elf "$t" "$S"; else log "optional tool $t not found: skipped"; fi
    done
    mkdir -p "$S/usr/share"
    cp -a /usr/share/alsa "$S/usr/share/"

    # busybox and its applet links (never over a real tool)
    cp /bin/busybox "$S/bin/busybox"
    while read -r p; do
        [ -e "$S/$p" ] || [ -L "$S/$p" ] || { mkdir -p "$S/$(dirname "$p")"; ln -s /bin/busybox "$S/$p"; }
    done < <("$S/bin/busybox" --list-full)
    [ -L "$S/bin/sh" ] || die "busybox has no sh applet"

    if [ "$(id -u)" = 0 ]; then
        mknod -m 600 "$S/dev/console" c 5 1
        mknod -m 666 "$S/dev/null" c 1 3
    fi
    printf 'root:x:0:0:root:/root:/bin/sh\n' >"$S/etc/passwd"
    printf 'root:x:0:\n' >"$S/etc/group"

    cat >"$S/init" <<'EOF'
#!/bin/sh
# ts-gate VM rig /init (generated by Tests/vm/make-initramfs.sh)
export PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=dumb
mount -t devtmpfs devtmpfs /dev 2>/dev/null
exec 0</dev/console 1>/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
modprobe configfs && mount -t configfs configfs /sys/kernel/config
ip link set lo up 2>/dev/null

NAME= TIMEOUT=90
for w in $(cat /proc/cmdline); do
    case $w in
        rig.test=*) NAME=${w#rig.test=} ;;
        rig.timeout=*) TIMEOUT=${w#rig.timeout=} ;;
    esac
done
[ -n "$NAME" ] || NAME=$(cat /etc/rig-test 2>/dev/null)

verdict() {
    echo
    echo "VERDICT $NAME $*"
    sync
    poweroff -f
    sleep 10
}

cd /root
echo "rig: scenario $NAME, uptime $(cut -d' ' -f1 /proc/uptime) s, timeout $TIMEOUT s"
[ -f "/scenarios/$NAME.sh" ] || verdict "FAIL no /scenarios/$NAME.sh"
export RIG_NAME="$NAME" RIG_REASON=/run/rig-reason
: >"$RIG_REASON"
timeout "$TIMEOUT" sh "/scenarios/$NAME.sh"
rc=$?
reason=$(tr '\n' ' ' <"$RIG_REASON" | sed 's/  */ /g; s/ $//')
echo "rig: scenario exited $rc at uptime $(cut -d' ' -f1 /proc/uptime) s"
if [ "$rc" = 0 ] && [ -z "$reason" ]; then
    verdict PASS
elif [ "$rc" = 143 ] || [ "$rc" = 124 ]; then
    verdict "FAIL timeout after ${TIMEOUT}s${reason:+ ($reason)}"
else
    verdict "FAIL ${reason:-exit status $rc}"
fi
EOF
    chmod 755 "$S/init"
    make_cpio "$S" "$BASE/base.cpio.gz"
    stamp_set "$BASE/.stamp" "$KEY"
    log "base initramfs: $(du -h "$BASE/base.cpio.gz" | cut -f1)"
fi

# --- per-scenario archive --------------------------------------------------------
mkdir -p "$(dirname "$OUT")"
O=$(mktemp -d "$BUILD_DIR/.overlay.XXXXXX"); TMPS+=("$O")
mkdir -p "$O/scenarios" "$O/etc" "$O/bin"
cp "$SCENARIO" "$O/scenarios/$NAME.sh"
# Shared helpers: the rig's (lib.sh) and the gate box's device setup (box.sh).
for helper in lib.sh box.sh; do
    [ -f "$VM_DIR/scenarios/$helper" ] && cp "$VM_DIR/scenarios/$helper" "$O/scenarios/$helper"
done
printf '%s\n' "$NAME" >"$O/etc/rig-test"
for f in "${EXTRAS[@]}"; do
    # A directory (the voice's clips) goes where the SD image keeps it.
    if [ -d "$f" ]; then
        mkdir -p "$O/usr/share/ts-gate"
        cp -r "$f" "$O/usr/share/ts-gate/$(basename "$f")"
        continue
    fi
    copy_elf "$f" "$O" "/bin/$(basename "$f")"
    chmod 755 "$O/bin/$(basename "$f")"
done
TMPS+=("$O.cpio.gz")
make_cpio "$O" "$O.cpio.gz"
cat "$BASE/base.cpio.gz" "$O.cpio.gz" >"$OUT.tmp"
mv -f "$OUT.tmp" "$OUT"
log "wrote $OUT ($(du -h "$OUT" | cut -f1))"
