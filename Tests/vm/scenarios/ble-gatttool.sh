#!/bin/sh
# The box in its normal `run` mode serves seed 002's GATT service over BLE,
# checked with BlueZ's gatttool (an independent client) and btmon:
#  - `ts-gate run` on hci1 (btvirt) powers it on through mgmt, advertises
#    and listens; gatttool on hci0 finds the primary service and the three
#    characteristics with the seed's properties;
#  - Device Info reads back (Read + Read Blob at MTU 23) as seed 002's JSON;
#  - a write to Timing Messages that is not a session_join is refused
#    (Insufficient Authorization: the peer has not joined);
#  - the box hosts a race (race = host, session code 482913): a
#    session_join written in 20-byte fragments is answered by notifications
#    that reassemble to seed 002's session_join_accepted, and from then on
#    the same link may write Clock Sync;
#  - btmon's capture decodes.
# Needs /bin/ts-gate and /bin/board.conf (board/vm-rig/board.conf).
. /scenarios/lib.sh
. /scenarios/box.sh
setup_box_devices

start_btvirt
HCI1=00:AA:01:01:00:01
/usr/bin/btmon -w /tmp/gatt.snoop >/dev/null 2>&1 &
monpid=$!

printf 'bluetooth = hci1\nrace = host\nrace.session = 482913\nrace.gates = 0, 30\n' >/tmp/box.conf
start_box /tmp/box.conf
wait_for 10 grep -q "bluetooth: hci1 $HCI1 serving seed 002's GATT service as ts-gate-0001" /tmp/run.out ||
    fail "the box did not serve GATT on hci1: $(grep bluetooth /tmp/run.out | tr '\n' ' ')"
# hci0 must be powered for gatttool (no bluetoothd): mgmt through btmgmt.
/usr/bin/btmgmt -i hci0 power on >/dev/null 2>&1 || fail "btmgmt could not power hci0 on"
G="/usr/bin/gatttool -i hci0 -b $HCI1 -t public"

timeout 15 $G --primary >/tmp/primary.out 2>&1
cat /tmp/primary.out
grep -q 'uuid: 12345678-1234-1000-8000-00805f9b34fb' /tmp/primary.out || fail "--primary did not list the service"
sleep 2
timeout 15 $G --characteristics >/tmp/chars.out 2>&1
cat /tmp/chars.out
grep -q 'char properties = 0x1a, char value handle = 0x0009, uuid = 12345678-0001-1000-8000-00805f9b34fb' /tmp/chars.out ||
    fail "Timing Messages not read|write|notify at 0x0009"
grep -q 'char properties = 0x02, char value handle = 0x000c, uuid = 12345678-0002-1000-8000-00805f9b34fb' /tmp/chars.out ||
    fail "Device Info not read at 0x000c"
grep -q 'char properties = 0x1c, char value handle = 0x000e, uuid = 12345678-0003-1000-8000-00805f9b34fb' /tmp/chars.out ||
    fail "Clock Sync not write|write-without-response|notify at 0x000e"
sleep 2
timeout 15 $G --char-read -a 0x000c >/tmp/info.out 2>&1
hex=$(sed -n 's/^Characteristic value\/descriptor: //p' /tmp/info.out)
info=""
for h in $hex; do info="$info$(printf "\\$(printf %o "0x$h")")"; done
echo "Device Info: $info"
case "$info" in
    '{"deviceId":"ts-gate-0001","deviceName":"ts-gate-0001","platform":"ts-gate",'*'"protocolVersion":"1.0","capabilities":{'*'}}') ;;
    *) fail "Device Info is not seed 002's JSON: $(cat /tmp/info.out)" ;;
esac
[ "${#info}" -gt 22 ] || fail "Device Info shorter than one MTU-23 read: no Read Blob exercised"

# A message other than session_join before joining: refused (0x08).
sleep 2
# A single-fragment message "{}" (id 1, fragment 0 of 1): whole at once.
timeout 15 $G --char-write-req -a 0x0009 -n 0100017b7d >/tmp/refused.out 2>&1
cat /tmp/refused.out
grep -qi 'authorization' /tmp/refused.out || fail "a non-join write was not refused for authorization"
sleep 2
timeout 15 $G --char-write-req -a 0x000e -n 0100 >/tmp/refused2.out 2>&1
cat /tmp/refused2.out
grep -qi 'authorization' /tmp/refused2.out || fail "a Clock Sync write before joining was not refused"

# session_join in 17-byte chunks behind a 3-byte header (id 2), one Write
# Request each, in gatttool's interactive mode (one link, subscribed first).
join='{"type":"session_join","timestamp":1706000000000,"deviceId":"gatttool","payload":{"sessionId":"482913","requestedRole":"finish"}}'
jhex=$(printf '%s' "$join" | od -An -v -tx1 | tr -d ' \n')
n=$(( (${#jhex} / 2 + 16) / 17 ))
sleep 2
{
    echo connect; sleep 3
    echo "char-write-req 0x000a 0100"; sleep 1
    i=0
    while [ $i -lt $n ]; do
        chunk=$(echo "$jhex" | cut -c$((i * 34 + 1))-$((i * 34 + 34)))
        printf 'char-write-req 0x0009 02%02x%02x%s\n' $i $n "$chunk"
        sleep 0.5
        i=$((i + 1))
    done
    sleep 3
    # Joined: Clock Sync takes this link's writes now.
    echo "char-write-req 0x000e 0100"; sleep 2
} | timeout 40 $G -I >/tmp/join.out 2>&1
sed 's/\x1b\[[0-9;]*m//g' /tmp/join.out | grep -v '^\[' | head -60
nots=$(grep -c 'Notification handle = 0x0009' /tmp/join.out)
[ "$nots" -ge 2 ] || fail "no fragmented notifications answered the session_join ($nots)"
# Every notification's value after its 3-byte fragment header, in order.
answer=""
for h in $(sed -n 's/\x1b\[[0-9;]*m//g; s/.*Notification handle = 0x0009 value: \([0-9a-f ]*\).*/\1/p' /tmp/join.out | cut -c10- | tr -d '\r'); do
    answer="$answer$(printf "\\$(printf %o "0x$h")")"
done
echo "notified: $answer"
case "$answer" in
    *'"type":"session_join_accepted"'*'"sessionId":"482913","assignedRole":"finish"'*) ;;
    *) fail "the notifications do not reassemble to session_join_accepted for session 482913 as the finish" ;;
esac
grep -q "race: finish gate (box gatttool) joined at 30 m" /tmp/run.out || fail "the box did not log the join"
grep -q "Characteristic value was written successfully" /tmp/join.out || fail "Clock Sync refused a joined link's write"
grep bluetooth /tmp/run.out
grep -q "^.* bluetooth: link from 00:AA:01:00:00:00" /tmp/run.out || fail "the box logged no link"

stop_box
kill "$monpid"; sleep 0.5
/usr/bin/btmon -r /tmp/gatt.snoop >/tmp/btmon.txt 2>&1 || fail "btmon -r failed"
grep -c 'ATT:' /tmp/btmon.txt
grep -qi 'Insufficient Authorization' /tmp/btmon.txt || fail "btmon shows no Insufficient Authorization"
pass "ble-gatttool: run serves GATT; primary, characteristics, Device Info, refusal, session_join accepted over notifications"
finish
