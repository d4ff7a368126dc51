#!/bin/sh
# The voice start on real drivers (issue 50; `ts-gate run`, static x86_64
# firmware, start.type = voice, the clips `make voice` writes in
# /usr/share/ts-gate/voice): arecord captures snd-aloop's loopback of the
# box's speaker as in the countdown scenario. The capture must hold three
# sounds, "On your marks", "Set" and the gunshot, with the gaps the box drew
# (each within its configured range: shortened here so the scenario is
# quick), and the GO's onset must match the instant the box recorded for
# its start within 2 ms. A call tapped off before its GO, before it, must
# leave no sound and no start.
# Needs /bin/ts-gate, /bin/board.conf and /usr/share/ts-gate/voice.
. /scenarios/lib.sh
. /scenarios/box.sh
setup_box_devices

VOICE=/usr/share/ts-gate/voice
[ -f $VOICE/on-your-marks.wav ] || fail "no voice clips in $VOICE"
start_capture 16

printf 'start.type = voice\nstart.prestart_s = 1-1.5\nstart.marks_to_set_s = 3-4\nstart.set_to_go_s = 0.5-1\n' >/tmp/voice.conf
start_box /tmp/voice.conf
grep -q "voice: 56 of 56 clips from $VOICE" /tmp/run.out || fail "the box did not load its voice: $(grep voice /tmp/run.out)"
tap_button
wait_for 5 grep -q "gate armed: tap the button for the voice start" /tmp/run.out || fail "a tap did not arm the box"

# A first call, called off by a tap before "On your marks": no sound, no start.
tap_button
wait_for 5 grep -q "button: voice start:" /tmp/run.out || fail "a tap on the armed box called no start"
sleep 0.3
tap_button
wait_for 5 grep -q "button: start called off before GO" /tmp/run.out || fail "a tap during the call did not call it off: $(tail -n 3 /tmp/run.out)"
sleep 0.5
read_capture_status /tmp/capture.status &
reader=$!
tap_button
wait_for 15 grep -q "voice start GO: run 1 started at" /tmp/run.out || fail "no GO from the voice start: $(cat /tmp/run.out)"
go=$(sed -n 's/.*voice start GO: run 1 started at \([0-9]*\) ns.*/\1/p' /tmp/run.out)
# "On your marks" in 1.234 s, "Set" 3.456 s after it, gunshot 0.789 s after "Set"
drawn=$(sed -n 's/.*voice start: "On your marks" in \([0-9.]*\) s, "Set" \([0-9.]*\) s after it, gunshot \([0-9.]*\) s after.*/\1 \2 \3/p' /tmp/run.out | tail -n 1)
say "drawn delays: $drawn"
[ "$(grep -c "button: voice start:" /tmp/run.out)" = 2 ] || fail "expected two calls: $(grep button /tmp/run.out)"
wait "$reader"
stop_box
end_capture

capture_epoch /tmp/capture.status

# Sounds: runs of samples between at least 0.2 s of digital silence, as
# "onset end" frame pairs.
bursts=$(sounds /tmp/capture.raw $((RATE / 5)))
say "sounds (onset end, frames): $(echo $bursts | tr '\n' ' ')"
set -- $bursts
[ $# = 6 ] || fail "expected 3 sounds in the capture (marks, set, GO; none from the call called off), found $(($# / 2))"
verdict=$(awk -v e="$epoch" -v r=$RATE -v m0="$1" -v m1="$2" -v s0="$3" -v s1="$4" -v g="$5" -v box="$go" -v drawn="$drawn" 'BEGIN {
    split(drawn, d, " ")
    heard = e + g / r; said = box / 1e9; err = (said - heard) * 1000
    mts = (s0 - m1) / r; stg = (g - s1) / r
    # The capture ends a word at its last non-zero sample; the clip keeps a
    # 20 ms fade after its last audible one, so gaps read up to ~25 ms long.
    ok = (err <= 2 && err >= -2 && mts - d[2] > -0.03 && mts - d[2] < 0.03 && stg - d[3] > -0.03 && stg - d[3] < 0.03 \
          && d[1] >= 1 && d[1] <= 1.5 && d[2] >= 3 && d[2] <= 4 && d[3] >= 0.5 && d[3] <= 1)
    printf "%s GO heard at %.6f s, box says %.6f s: %+.3f ms; marks %.3f s long, set after %.3f s (drawn %s), GO after %.3f s (drawn %s)\n",
        ok ? "ok" : "bad", heard, said, err, (m1 - m0) / r, mts, d[2], stg, d[3] }')
say "$verdict"
case "$verdict" in ok*) ;; *) fail "voice start: $verdict" ;; esac
results=/tmp/results/session-0001/results.jsonl
grep -q "\"type\":\"start\".*\"startType\":\"voice\",\"startTimeNanos\":$go,\"source\":\"pcm-status\"" "$results" ||
    fail "no start record for the GO at $go in $results"
[ "$(grep -c '"type":"start"' "$results")" = 1 ] || fail "the called-off start left a start record"
finish
