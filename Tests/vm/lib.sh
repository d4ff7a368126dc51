# shellcheck shell=bash disable=SC2034  # variables are used by the sourcing scripts
# Shared helpers of the VM test rig (Tests/vm/*.sh). Sourced, never run.
#
# Layout:
#   machine-wide cache  ${TS_GATE_CACHE:-$HOME/.cache/ts-gate}/vm
#       debs/                     downloaded kernel .debs
#       kernel.env                the kernel the rig uses now (written by fetch-kernel.sh)
#       kernels/KVER/root/        unpacked linux-image (vmlinuz + /lib/modules, depmod'ed)
#       kernels/KVER/headers/     unpacked linux-headers-*-amd64, -common, linux-kbuild-*
#       kernels/KVER/src/         the few files taken from linux-source-*.tar.xz
#       kernels/KVER/gpio-sim/    out-of-tree gpio-sim build (.ko also installed into root/)
#       kernels/KVER/v4l2loopback-src/, v4l2loopback/   its source (from Debian's
#                                 v4l2loopback-dkms) and build, likewise installed
#   per checkout        <repo>/build/vm/   initramfs images, boot logs (gitignored)

set -euo pipefail

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$VM_DIR/../.." && pwd)
VM_CACHE=${TS_GATE_CACHE:-${HOME:?HOME is unset: set TS_GATE_CACHE}/.cache/ts-gate}/vm
BUILD_DIR=$REPO_ROOT/build/vm

# Host packages the rig needs: emulator, initramfs tools, module build tools,
# and the packages whose binaries are copied into the guest.
HOST_PACKAGES=(
    qemu-system-x86 busybox-static cpio kmod xz-utils gzip
    gcc make
    alsa-utils i2c-tools bluez bluez-test-tools v4l-utils
)

log() { printf '[%s] %s\n' "${0##*/}" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# sha256 over its arguments, used as stamp contents: an absolute path to a
# file stands for the file's contents, anything else for itself. A step is
# redone when its inputs (including its own script) change, else a no-op.
fingerprint() {
    local x
    for x in "$@"; do
        case $x in
            /*) [ -f "$x" ] || die "fingerprint: no file $x"; sha256sum "$x" | cut -d' ' -f1 ;;
            *) printf '%s\n' "$x" ;;
        esac
    done | sha256sum | cut -d' ' -f1
}
stamp_ok() { [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]; }   # stamp_ok FILE KEY
stamp_set() { printf '%s\n' "$2" >"$1.tmp" && mv -f "$1.tmp" "$1"; }

# Serialise a step across concurrent runs (one lock file per step, so that a
# step may run the previous step's script without deadlocking).
take_lock() {
    mkdir -p "$VM_CACHE"
    exec 9>"$VM_CACHE/.$1.lock"
    flock 9
}

pkg_installed() {
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

ensure_packages() {
    local p missing=()
    for p in "$@"; do pkg_installed "$p" || missing+=("$p"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    [ "$(id -u)" = 0 ] || die "missing host packages (need root to install): ${missing[*]}"
    log "apt-get install ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null; then
        log "install failed; refreshing package lists and retrying"
        apt-get update -q </dev/null
        apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
    fi
}

# Load the kernel chosen by fetch-kernel.sh: KVER KPKGVER KSERIES KDIR KROOT KHEADERS KSRC
load_kernel_env() {
    [ -f "$VM_CACHE/kernel.env" ] || die "no $VM_CACHE/kernel.env: run Tests/vm/fetch-kernel.sh"
    # shellcheck disable=SC1091
    . "$VM_CACHE/kernel.env"
    KDIR=$VM_CACHE/kernels/$KVER
    KROOT=$KDIR/root
    KHEADERS=$KDIR/headers/usr/src/linux-headers-$KVER
    KSRC=$KDIR/src
    [ -f "$KDIR/.stamp-fetch" ] || die "kernel $KVER is not fully fetched: run Tests/vm/fetch-kernel.sh"
}

# Out-of-tree module builds (build-gpio-sim.sh, build-v4l2loopback.sh).

# ensure_kernel_compiler: installs the gcc the kernel was built with (CC =
# ... gcc-12 in the headers' .kernelvariables) and make. After load_kernel_env.
ensure_kernel_compiler() {
    local cc
    cc=$(grep -o 'gcc-[0-9][0-9]*' "$KHEADERS/.kernelvariables" | head -n1 || true)
    [ -n "$cc" ] || die "cannot find the compiler in $KHEADERS/.kernelvariables"
    ensure_packages "$cc" make
}

# build_module NAME DIR: make -C HEADERS M=DIR modules (one job: the machine
# is shared), then checks DIR/NAME.ko exists with this kernel's vermagic.
build_module() {
    make -s -j1 -C "$KHEADERS" M="$2" modules >"$2/build.log" 2>&1 || {
        cat "$2/build.log" >&2
        die "$1 build failed"
    }
    [ -f "$2/$1.ko" ] || die "no $1.ko produced"
    modinfo -F vermagic "$2/$1.ko" | grep -q "^$KVER " ||
        die "$1.ko vermagic is not $KVER: $(modinfo -F vermagic "$2/$1.ko")"
}

# install_module NAME KO: installs KO into the cached module tree as
# extra/NAME.ko and re-runs depmod, so that modprobe resolves it like any
# other module (redone if fetch-kernel.sh re-unpacked the tree).
install_module() {
    local installed=$KROOT/lib/modules/$KVER/extra/$1.ko
    if ! cmp -s "$2" "$installed"; then
        log "installing $1.ko into $KROOT/lib/modules/$KVER/extra"
        mkdir -p "${installed%/*}"
        cp "$2" "$installed.tmp"
        mv -f "$installed.tmp" "$installed"
        depmod -b "$KROOT" "$KVER"
    fi
    modprobe -d "$KROOT" -S "$KVER" --show-depends "$1" >/dev/null ||
        die "modprobe cannot resolve $1 in $KROOT"
    log "ready: $installed"
}
