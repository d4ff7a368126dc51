#!/bin/sh
# Two boxes in their normal `run` mode race over Bluetooth LE (btvirt's two
# controllers, no bluetoothd), each with its own camera (vivid's two
# instances), buttons (a gpio-sim bank each), the IMU and the speaker:
#  - the host (hci1, race = host, session 482913, gates 0 and 30 m)
#    advertises; the joiner (hci0, race = join) scans for the service,
#    connects, finds the handles, subscribes and writes its session_join;
#    the host accepts it as the finish gate and both log it; the joiner,
#    the link's central, asks for a 7.5 ms interval and logs it in force;
#  - clock sync runs over the link (the host's Clock Sync notifications,
#    the joiner's Write Commands with kernel receive stamps) until the
#    host logs the joiner's clock synced;
#  - heartbeats both ways keep the link: neither declares the other silent;
#  - the joiner's controller ends the link (btmgmt disconnect); the
#    joiner connects again by itself and rejoins with nothing lost.
# Needs /bin/ts-gate and /bin/board.conf (board/vm-rig/board.conf).
. /scenarios/lib.sh
. /scenarios/box.sh
setup_two_boxes
start_btvirt

printf 'bluetooth = hci1\nrace = host\nrace.session = 482913\nrace.gates = 0, 30\n' >/tmp/host.conf
printf 'bluetooth = hci0\nrace = join\nrace.session = 482913\nrace.role = finish\n' >/tmp/join.conf
start_box /tmp/host.conf
start_box2 /tmp/join.conf

wait_for 30 grep -q "race: finish gate (box ts-gate-0000) joined at 30 m" /tmp/run.out ||
    fail "the host did not accept the joiner: $(grep -E 'race|bluetooth' /tmp/run.out /tmp/run2.out | tr '\n' ' ')"
wait_for 10 grep -q "race: joined session 482913 as the finish gate" /tmp/run2.out ||
    fail "the joiner did not log its join: $(grep -E 'race|bluetooth' /tmp/run2.out | tr '\n' ' ')"
# The joiner is the link's central: it asks for 7.5 ms, and gets it.
wait_for 10 grep -q "bluetooth: link interval 7.50 ms" /tmp/run2.out ||
    fail "the joiner's link did not go to 7.5 ms: $(grep 'bluetooth: link' /tmp/run2.out | tr '\n' ' ')"
wait_for 40 grep -q "race: clock of box ts-gate-0000 synced" /tmp/run.out ||
    fail "the host never synced the joiner's clock: $(grep -E 'race|bluetooth' /tmp/run.out | tail -n 5 | tr '\n' ' ')"
sleep 8
grep -q "silent for" /tmp/run.out /tmp/run2.out && fail "a box declared the other silent on a live link"

# The link drops (the joiner's controller ends it, as a radio out of range
# would): the joiner reconnects by itself and rejoins. Not `hciconfig
# down`: btvirt then never tells the other controller that the link is
# gone, the new link gets the same handle, and Debian 6.1's kernel corrupts
# its connection list (kernel BUG in hci_chan_del when a socket closes).
/usr/bin/btmgmt --index 0 disconnect -t 1 00:AA:01:01:00:01 >/tmp/disconnect.out 2>&1 ||
    fail "btmgmt could not end the link: $(cat /tmp/disconnect.out)"
wait_for 10 grep -q "race: the host: link lost" /tmp/run2.out || fail "the joiner did not see the link drop"
wait_for 40 grep -q "race: finish gate (box ts-gate-0000) rejoined" /tmp/run.out ||
    fail "the joiner did not rejoin after the link dropped: $(grep -E 'race|bluetooth' /tmp/run2.out | tail -n 8 | tr '\n' ' ')"

echo "--- host"; grep -E "race|bluetooth" /tmp/run.out
echo "--- joiner"; grep -E "race|bluetooth" /tmp/run2.out
stop_box2
stop_box
pass "ble-race: two boxes in run mode join, sync, heartbeat and rejoin over BLE"
finish
