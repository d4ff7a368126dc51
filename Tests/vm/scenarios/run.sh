#!/bin/sh
# The box's loop on real drivers (`ts-gate run`, static x86_64 firmware):
# a button press arms it; i2c-stub holding the box still lets the gate arm
# (steady LED); a shake disarms it and it says why (LED back to blinking);
# still again re-arms; SIGTERM closes the session's results cleanly.
# Needs /bin/ts-gate and /bin/board.conf (board/vm-rig/board.conf).
. /scenarios/lib.sh
. /scenarios/box.sh
setup_box_devices

/bin/ts-gate run --board /bin/board.conf --data-dir /tmp/results >/tmp/run.out 2>&1 &
pid=$!
wait_for 15 grep -q "press the button to arm" /tmp/run.out || fail "the box did not start a session"

press_button; sleep 0.2; release_button
wait_for 5 grep -q "button: arming" /tmp/run.out || fail "the button press was not seen"
wait_for 5 grep -q "gate armed" /tmp/run.out || fail "a still box did not arm"
leds=$(led_samples 6 0.1)
[ "$leds" = 111111 ] || fail "armed LED is not steady on: $leds"

# Shake: 0.5 g sideways.
set_accel 0x2000 0x0000 0x4000
wait_for 3 grep -q "tripod moved" /tmp/run.out || fail "a shaken box did not disarm"
set_accel 0x0000 0x0000 0x4000
leds=$(led_samples 12 0.1)
case "$leds" in *1*0*|*0*1*) ;; *) fail "stabilising LED does not blink: $leds" ;; esac
wait_for 5 sh -c '[ "$(grep -c "gate armed" /tmp/run.out)" -ge 2 ]' || fail "the box did not re-arm once still again"

kill -TERM "$pid"
wait "$pid"
status=$?
cat /tmp/run.out
[ "$status" = 0 ] || fail "ts-gate run exited $status after SIGTERM"
results=/tmp/results/session-0001/results.jsonl
head -n1 "$results" | grep -q '"type":"session"' || fail "no session record first in $results"
tail -n1 "$results" | grep -q '"type":"session_end".*"reason":"stopped"' || fail "no clean session_end after SIGTERM: $(tail -n1 "$results")"
[ "$(line_value 1)" = 0 ] || fail "the LED stayed on after the box stopped"
finish
