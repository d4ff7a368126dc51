#!/bin/sh
# The box's loop on real drivers (`ts-gate run`, static x86_64 firmware):
# a button press arms it; i2c-stub holding the box still lets the gate arm
# (steady LED); a shake disarms it and it says why (the error pattern), and
# it stays disarmed until the button is pressed again; SIGHUP closes the
# session and starts a new one with the edited configuration (experimental
# mode, where a shaken box re-arms by itself once still), and a bad edit is
# refused by line while the box goes on with what it had; SIGTERM closes the
# session's results cleanly.
# Needs /bin/ts-gate and /bin/board.conf (board/vm-rig/board.conf).
. /scenarios/lib.sh
. /scenarios/box.sh
setup_box_devices

printf 'gate.position = 0.5\nrealtime = on\n' >/tmp/box.conf
start_box /tmp/box.conf

press_button; sleep 0.2; release_button
wait_for 5 grep -q "button: arming" /tmp/run.out || fail "the button press was not seen"
wait_for 5 grep -q "gate armed" /tmp/run.out || fail "a still box did not arm"
leds=$(led_samples 6 0.1)
[ "$leds" = 111111 ] || fail "armed LED is not steady on: $leds"

armed_count() { grep -c "gate armed" /tmp/run.out; }

# Shake: 0.5 g sideways. Photo-finish disarms and waits for a person.
set_accel 0x2000 0x0000 0x4000
wait_for 3 grep -q "tripod moved (0.500 g): gate disarmed; check the aim" /tmp/run.out || fail "a shaken box did not disarm"
set_accel 0x0000 0x0000 0x4000
leds=$(led_samples 12 0.1)
case "$leds" in *1*0*|*0*1*) ;; *) fail "error LED does not blink: $leds" ;; esac
wait_for 3 grep -q "tripod still again: learning the scene afresh" /tmp/run.out || fail "the box did not see the tripod still again"
[ "$(armed_count)" = 1 ] || fail "photo-finish re-armed without a press after a shake"
tap_button
wait_for 5 sh -c '[ "$(grep -c "gate armed" /tmp/run.out)" -ge 2 ]' || fail "a press did not re-arm the box once still again"

# Reload: a good edit starts session 2 with it; a bad one is refused by line.
printf 'gate.position = 0.4\nrealtime = on\ndetection.mode = experimental\n' >/tmp/box.conf
kill -HUP "$pid"
wait_for 10 grep -q "settings reloaded" /tmp/run.out || fail "SIGHUP did not reload the settings"
wait_for 10 grep -q "results in /tmp/results/session-0002" /tmp/run.out || fail "no new session after the reload"
tail -n1 /tmp/results/session-0001/results.jsonl | grep -q '"type":"session_end".*"reason":"reload"' ||
    fail "session 1 not closed for the reload: $(tail -n1 /tmp/results/session-0001/results.jsonl)"
wait_for 5 grep -q '"detection":"experimental".*"gatePosition":0.4000' /tmp/results/session-0002/results.jsonl ||
    fail "session 2 does not use the edited settings: $(head -n1 /tmp/results/session-0002/results.jsonl)"
# Experimental mode: a shake disarms, and still again re-arms by itself.
tap_button
wait_for 5 sh -c '[ "$(grep -c "gate armed" /tmp/run.out)" -ge 3 ]' || fail "session 2 did not arm"
set_accel 0x2000 0x0000 0x4000
wait_for 3 grep -q "tripod moved (0.500 g): the gate arms again once it is still" /tmp/run.out ||
    fail "experimental mode: a shaken box did not say it re-arms once still"
set_accel 0x0000 0x0000 0x4000
wait_for 5 sh -c '[ "$(grep -c "gate armed" /tmp/run.out)" -ge 4 ]' || fail "experimental mode did not re-arm by itself once still"
leds=$(led_samples 6 0.1)
[ "$leds" = 111111 ] || fail "experimental mode re-armed but the LED is not steady: $leds"
printf 'realtime = on\ndetection.mode = experimental\ngate.position = 1.5\n' >/tmp/box.conf
kill -HUP "$pid"
wait_for 10 grep -q "reload refused, keeping the settings in use: /tmp/box.conf line 3: gate.position = 1.5: expected" /tmp/run.out ||
    fail "a bad edit was not refused by its line: $(tail -n 3 /tmp/run.out)"
wait_for 10 grep -q "results in /tmp/results/session-0003" /tmp/run.out || fail "the box did not go on after a refused reload"
wait_for 5 grep -q '"gatePosition":0.4000' /tmp/results/session-0003/results.jsonl || fail "session 3 does not keep the settings in use"

stop_box
grep -q "warning: running without real-time" /tmp/run.out && fail "as root in the VM, SCHED_FIFO and mlockall should be granted"
results=/tmp/results/session-0003/results.jsonl
head -n1 "$results" | grep -q '"type":"session"' || fail "no session record first in $results"
tail -n1 "$results" | grep -q '"type":"session_end".*"reason":"stopped"' || fail "no clean session_end after SIGTERM: $(tail -n1 "$results")"
[ "$(line_value 1)" = 0 ] || fail "the LED stayed on after the box stopped"
finish
