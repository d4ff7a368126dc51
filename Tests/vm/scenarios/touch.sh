#!/bin/sh
# Touch-release start and the button's gestures on real drivers (`ts-gate
# run`, static x86_64 firmware, start.type = touch-release):
# - a tap arms the box; a brush of the touch pad (< 0.5 s) is refused, and
#   a touch right after it (inside the debounce window) still counts;
# - the pad held 1 s and released starts the run at the release edge's
#   kernel timestamp: the box is frozen (SIGSTOP) across the release, so a
#   time read when the loop handled the edge would fall outside the window
#   measured around the gpio-sim write;
# - a long press (3 s) disarms: LED off;
# - a 5 s press asks for pairing, which needs a Bluetooth controller the rig
#   does not load here: the error
#   pattern, LED blinking fast and the buzzer's long buzz;
# - SIGTERM closes the results with the start record in them.
# Needs /bin/ts-gate and /bin/board.conf (board/vm-rig/board.conf).
. /scenarios/lib.sh
. /scenarios/box.sh
setup_box_devices

[ -n "$(mono_now)" ] || fail "no 'now at' in /proc/timer_list: cannot read CLOCK_MONOTONIC"
echo "start.type = touch-release" >/tmp/touch.conf
start_box /tmp/touch.conf
grep -q "touch-release start" /tmp/run.out || fail "the session is not a touch-release one: $(cat /tmp/run.out)"

tap_button
wait_for 5 grep -q "gate armed: hold the touch pad" /tmp/run.out || fail "a tap did not arm the box"

# A brush, and the pad touched again at once: the new touch comes inside
# the 20 ms debounce window of the brush's release, and the box must still
# count it (EdgeDebouncer holds it back until the release shows it was real;
# dropping it lost the start that follows).
press_touch; sleep 0.1; release_touch; press_touch
wait_for 5 grep -q "touch pad: released after" /tmp/run.out || fail "a brush of the pad was not refused"
sleep 1
kill -STOP "$pid"
t0=$(mono_now)
release_touch
t1=$(mono_now)
sleep 0.5
kill -CONT "$pid"
wait_for 5 grep -q "touch-release start (held" /tmp/run.out || fail "the release did not start a run"
started=$(sed -n 's/.*touch-release start (held [0-9.]* s): run 1 started at \([0-9]*\) ns.*/\1/p' /tmp/run.out)
[ -n "$started" ] || fail "no start instant in: $(grep 'touch-release start (held' /tmp/run.out)"
say "release written between $t0 and $t1 ns; the box says the run started at $started ns"
[ "$started" -ge "$t0" ] && [ "$started" -le "$t1" ] ||
    fail "start $started ns is not the release edge (written between $t0 and $t1 ns)"
results=/tmp/results/session-0001/results.jsonl
grep -q "\"type\":\"start\".*\"runId\":\"run-001\",\"startType\":\"touchRelease\",\"startTimeNanos\":$started,\"source\":\"gpio-edge\"" "$results" ||
    fail "no start record for $started in $results"

press_button; sleep 3; release_button
wait_for 5 grep -q "disarmed; the run in progress is abandoned" /tmp/run.out || fail "a long press did not disarm"
leds=$(led_samples 6 0.1)
[ "$leds" = 000000 ] || fail "LED not off after disarming: $leds"

press_button; sleep 5.5; release_button
wait_for 5 grep -q "pairing mode" /tmp/run.out || fail "a 5 s press was not taken as pairing"
buzz=$(line_samples 2 12 0.05)
leds=$(led_samples 12 0.05)
case "$buzz" in 1*0) ;; *) fail "error pattern: buzzer should buzz then stop: $buzz" ;; esac
case "$leds" in *1*0*1*|*0*1*0*) ;; *) fail "error pattern: LED should blink fast: $leds" ;; esac
say "error pattern: buzzer $buzz, LED $leds"

stop_box
tail -n1 "$results" | grep -q '"type":"session_end".*"reason":"stopped"' || fail "no clean session_end: $(tail -n1 "$results")"
finish
