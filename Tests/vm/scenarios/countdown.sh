#!/bin/sh
# The countdown's GO instant on real drivers (`ts-gate run`, static x86_64
# firmware, start.type = countdown): arecord captures snd-aloop's loopback of
# the box's speaker, bit-exact, while the capture's kernel status is read
# again and again from /proc (its timestamp and hardware position give when
# captured frame 0 was taken, on CLOCK_MONOTONIC). The GO's onset found in
# the capture must match the instant the box recorded for its start within
# 2 ms, and the three beeps must come a second apart before it.
# Needs /bin/ts-gate and /bin/board.conf (board/vm-rig/board.conf).
. /scenarios/lib.sh
. /scenarios/box.sh
setup_box_devices

# Capture first, mono: the loopback then holds the box's playback to it.
start_capture 14

echo "start.type = countdown" >/tmp/countdown.conf
start_box /tmp/countdown.conf
tap_button
wait_for 5 grep -q "gate armed: tap the button for the countdown" /tmp/run.out || fail "a tap did not arm the box"

# Readings of the capture's status through the countdown, in the background.
read_capture_status /tmp/capture.status &
reader=$!
tap_button
wait_for 10 grep -q "countdown GO: run 1 started at" /tmp/run.out || fail "no GO from the countdown: $(cat /tmp/run.out)"
go=$(sed -n 's/.*countdown GO: run 1 started at \([0-9]*\) ns.*/\1/p' /tmp/run.out)
wait "$reader"
stop_box
end_capture

capture_epoch /tmp/capture.status

# Onsets: the first non-zero sample after at least 0.2 s of digital silence.
onsets=$(sounds /tmp/capture.raw $((RATE / 5)) | cut -d' ' -f1)
say "onsets (frames): $(echo $onsets)"
set -- $onsets
[ $# = 4 ] || fail "expected 4 onsets (3, 2, 1, GO) in the capture, found $#"
if [ $# = 4 ]; then
    verdict=$(awk -v e="$epoch" -v r=$RATE -v b1="$1" -v b2="$2" -v b3="$3" -v g="$4" -v box="$go" 'BEGIN {
        heard = e + g / r; said = box / 1e9; d = (said - heard) * 1000
        s1 = (b2 - b1) / r; s2 = (b3 - b2) / r; s3 = (g - b3) / r
        # A beep starts at zero (a sine), the gunshot does not: beeps are heard one frame in.
        ok = (d <= 2 && d >= -2 && s1 == 1 && s2 == 1 && (g - b3) == r - 1)
        printf "%s GO heard at %.6f s, box says %.6f s: %+.3f ms; cues %.4f %.4f %.4f s apart\n", ok ? "ok" : "bad", heard, said, d, s1, s2, s3 }')
    say "$verdict"
    case "$verdict" in ok*) ;; *) fail "countdown: $verdict" ;; esac
fi
results=/tmp/results/session-0001/results.jsonl
grep -q "\"type\":\"start\".*\"startType\":\"countdown\",\"startTimeNanos\":$go,\"source\":\"pcm-status\"" "$results" ||
    fail "no start record for the GO at $go in $results"
finish
