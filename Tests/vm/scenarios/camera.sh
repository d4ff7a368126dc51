#!/bin/sh
# A camera that vanishes mid-session and comes back (`ts-gate run`, static
# x86_64 firmware): vivid's "Disconnect" control unregisters its video nodes
# as a USB unplug would. The armed box must say the camera is lost, disarm
# with the error pattern, close the device, keep its session and results,
# and, once the camera is back, open it anew and arm again without a
# restart. vivid plugs itself back in: it re-registers its nodes
# ("reconnect" in the kernel log) when the last user of the lost ones
# closes them, so that message is the proof the box let go of the lost
# camera. (Unloading vivid as that proof raced the box, which retries the
# camera once a second: under load it had the reconnected camera open
# again before rmmod ran, and the module could not be unloaded.)
# Needs /bin/ts-gate and /bin/board.conf (board/vm-rig/board.conf).
. /scenarios/lib.sh
. /scenarios/box.sh
setup_box_devices

start_box
tap_button
wait_for 5 grep -q "gate armed" /tmp/run.out || fail "the box did not arm"

/usr/bin/v4l2-ctl -d /dev/video0 --set-ctrl disconnect=1 || fail "vivid's disconnect control could not be set"
wait_for 5 grep -q "camera lost" /tmp/run.out || fail "the box did not notice the camera going away"
leds=$(led_samples 12 0.05)
case "$leds" in *1*0*1*|*0*1*0*) ;; *) fail "no error pattern (fast blink) while the camera is lost: $leds" ;; esac
kill -0 "$pid" 2>/dev/null || fail "the box stopped when the camera went away"
wait_for 5 sh -c 'dmesg | grep -q "vivid.*: reconnect"' ||
    fail "vivid did not reconnect: the box still holds the lost camera open"

wait_for 10 grep -q "camera back" /tmp/run.out || fail "the box did not open the camera again: $(tail -n 3 /tmp/run.out)"
wait_for 5 sh -c '[ "$(grep -c "gate armed" /tmp/run.out)" -ge 2 ]' || fail "the box did not arm again once the camera was back"

stop_box
[ ! -d /tmp/results/session-0002 ] || fail "the camera's return started a new session instead of keeping the first"
results=/tmp/results/session-0001/results.jsonl
head -n1 "$results" | grep -q '"type":"session"' || fail "the session record is gone from $results"
tail -n1 "$results" | grep -q '"type":"session_end".*"reason":"stopped"' || fail "no clean session_end: $(tail -n1 "$results")"
finish
