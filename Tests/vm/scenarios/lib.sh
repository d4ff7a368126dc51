# Helpers for VM rig scenarios (busybox sh in the guest). Use: . /scenarios/lib.sh
#
# A scenario passes when it exits 0 and recorded no failure. fail() records a
# reason (it ends up in the "VERDICT NAME FAIL <reason>" line) and lets the
# scenario go on, so one run names every broken piece; finish() exits.
# Call host tools by full path (/usr/sbin/i2cset): busybox's shell prefers its
# own applets over PATH.

say() { echo "[$RIG_NAME] $*"; }
pass() { say "ok: $*"; }
fail() { say "FAIL: $*"; echo "$*;" >>"$RIG_REASON"; }

# wait_for SECONDS CMD [ARGS...]: poll CMD every 0.1 s until it succeeds.
wait_for() {
    _n=$(($1 * 10))
    shift
    while [ "$_n" -gt 0 ]; do
        "$@" 2>/dev/null && return 0
        sleep 0.1
        _n=$((_n - 1))
    done
    "$@"
}

# load MOD [PARAMS...]: modprobe, recording a failure; returns its status.
load() {
    modprobe "$@" && return 0
    fail "modprobe $* failed"
    return 1
}

finish() {
    if [ -s "$RIG_REASON" ]; then exit 1; fi
    exit 0
}

# start_btvirt: btvirt's two virtual LE controllers (hci0, hci1) on hci_vhci,
# with the crypto chain the kernel's SMP needs; without hci1 the scenario
# fails and ends here.
start_btvirt() {
    for m in af_alg algif_hash algif_skcipher sha3_generic sha512_generic ctr jitterentropy_rng drbg cmac ecb ecdh_generic hci_vhci; do
        load "$m"
    done
    wait_for 5 test -c /dev/vhci || fail "no /dev/vhci"
    /usr/bin/btvirt -L -l2 >/tmp/btvirt.log 2>&1 &
    if ! wait_for 10 test -e /sys/class/bluetooth/hci1; then
        fail "btvirt: no hci1 ($(tr '\n' ' ' </tmp/btvirt.log))"
        finish
    fi
}
