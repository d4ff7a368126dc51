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
