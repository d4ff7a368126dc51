# shellcheck shell=bash disable=SC2034  # variables are used by the sourcing scripts
# Shared helpers of the SD image scripts (image/build-image.sh, rootfs.sh,
# Tests/image/boot-test.sh). Sourced, never run.
#
# Layout:
#   machine-wide cache  ${TS_GATE_CACHE:-$HOME/.cache/ts-gate}/image
#       rootfs-ARCH-KEY.tar     mmdebstrap's root filesystem, KEY = hash of
#                               its packages, suite, mirrors and scripts
#       efi/                    systemd-boot's EFI binaries (host-side, x86)
#       tmp/                    mmdebstrap's TMPDIR (its chroot lives here)
#   per checkout        <repo>/build/image/   the images and their work dirs

set -euo pipefail

IMAGE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$IMAGE_DIR/.." && pwd)
IMAGE_CACHE=${TS_GATE_CACHE:-${HOME:?HOME is unset: set TS_GATE_CACHE}/.cache/ts-gate}/image
OUT_DIR=$REPO_ROOT/build/image

log() { printf '[%s] %s\n' "${0##*/}" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# sha256 over its arguments: an absolute path stands for the file's
# contents, anything else for itself (the same rule as Tests/vm/lib.sh).
fingerprint() {
    local x
    for x in "$@"; do
        case $x in
            /*) [ -f "$x" ] || die "fingerprint: no file $x"; sha256sum "$x" | cut -d' ' -f1 ;;
            *) printf '%s\n' "$x" ;;
        esac
    done | sha256sum | cut -d' ' -f1
}

pkg_installed() {
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

# Installs what is missing, latest candidate, never a pinned version.
ensure_packages() {
    local p missing=()
    for p in "$@"; do pkg_installed "$p" || missing+=("$p"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    [ "$(id -u)" = 0 ] || die "missing host packages (need root to install): ${missing[*]}"
    log "apt-get install ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null >&2; then
        log "install failed; refreshing package lists and retrying"
        apt-get update -q </dev/null >&2
        apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null >&2
    fi
}

# Serialise a step across concurrent runs (one lock file per step).
take_lock() {
    mkdir -p "$IMAGE_CACHE"
    exec 9>"$IMAGE_CACHE/.$1.lock"
    flock 9
}

# Reads board/NAME/image.conf into IMAGE_* variables.
load_board() {
    BOARD=$1
    BOARD_DIR=$REPO_ROOT/board/$BOARD
    [ -f "$BOARD_DIR/image.conf" ] || die "no board/$BOARD/image.conf (boards with an image: $(cd "$REPO_ROOT/board" && ls -d */image.conf 2>/dev/null | cut -d/ -f1 | xargs))"
    # shellcheck disable=SC1091
    . "$BOARD_DIR/image.conf"
    : "${IMAGE_ARCH:?board/$BOARD/image.conf sets no IMAGE_ARCH}"
    : "${IMAGE_FIRMWARE_ARCH:?board/$BOARD/image.conf sets no IMAGE_FIRMWARE_ARCH}"
    : "${IMAGE_CONSOLE:?board/$BOARD/image.conf sets no IMAGE_CONSOLE}"
}
