#!/bin/sh
# Two boxes over Bluetooth LE, with no bluetoothd: btvirt's two virtual LE
# controllers (hci0, hci1) on hci_vhci, ts-gate driving each through the
# kernel's mgmt socket, L2CAP's ATT channel and an HCI event socket.
#  - selftest powers both controllers on through mgmt and shows them;
#  - box A (ble-probe --listen on hci1) advertises seed 002's service and
#    its short name; btmgmt (independent) and `ts-gate peers --scan` on hci0
#    see it by the service UUID;
#  - box B (ble-probe --connect any on hci0) discovers it, connects without
#    blocking, reads the handle and the interval, asks for 7.5 ms, pairs
#    and bonds through the kernel's SMP (each side answering its own User
#    Confirm Request), sends bytes that arrive at A with a kernel stamp,
#    gets A's echo; while B holds the link, btmgmt sees A advertising
#    again; B closes and both see the link go down;
#  - btmon's capture (independent) shows the 7.5 ms interval in force;
#  - a connect to a peer that is not there gives up at the box's own
#    timeout instead of the kernel's ~40 s.
# Needs /bin/ts-gate (static x86_64 firmware) and /bin/board.conf.
. /scenarios/lib.sh

start_btvirt
HCI0=00:AA:01:00:00:00
HCI1=00:AA:01:01:00:01
UUID=12345678-1234-1000-8000-00805F9B34FB
[ -x /usr/bin/btmon ] && { /usr/bin/btmon -w /tmp/ble.snoop >/dev/null 2>&1 & monpid=$!; }

# --- selftest: both controllers powered through mgmt --------------------------
echo "required = bluetooth" >/tmp/ble.conf
/bin/ts-gate selftest --board /bin/board.conf --config /tmp/ble.conf >/tmp/selftest.out 2>&1
status=$?
grep -E '^(device|bluetooth)|^selftest' /tmp/selftest.out
[ "$status" = 0 ] || fail "selftest exited $status"
grep -q "^bluetooth *yes *hci0 $HCI0 LE supported, powered; hci1 $HCI1 LE supported, powered" /tmp/selftest.out ||
    fail "selftest did not show both controllers powered"

# --- box A advertises and listens on hci1 --------------------------------------
/bin/ts-gate ble-probe --controller hci1 --listen --once --seconds 60 >/tmp/a.out 2>&1 &
apid=$!
wait_for 10 grep -q '^listening' /tmp/a.out || fail "box A did not start listening: $(tr '\n' ' ' </tmp/a.out)"
sed 's/^/A: /' /tmp/a.out

# btmgmt, an independent scanner, finds A's advertisement with the UUID.
timeout 15 /usr/bin/btmgmt -i hci0 find -l >/tmp/find.out 2>&1
grep -i -A4 "$HCI1" /tmp/find.out | head -8
grep -q "$HCI1" /tmp/find.out || fail "btmgmt find did not see hci1 advertising"
# btmgmt 5.66 prints the flags and the name, not 128-bit UUIDs (ts-gate's
# own scan below checks the UUID): the name comes from the scan response.
grep -A3 "dev_found: $HCI1" /tmp/find.out | grep -q 'name ts-gate-0001' || fail "btmgmt did not see the name ts-gate-0001 from hci1"

/bin/ts-gate peers --scan --controller hci0 --seconds 4 >/tmp/peers.out 2>&1 || fail "peers --scan exited $?"
cat /tmp/peers.out
grep -q "^  $HCI1  ts-gate-0001 " /tmp/peers.out || fail "peers --scan did not list box A as ts-gate-0001"

# --- box B on hci0 finds A by the service UUID, connects, talks, closes ---------
# B pairs (BT_SECURITY medium: the kernel's SMP, each side's User Confirm
# Request answered by its own mgmt socket) and holds the link while
# btmgmt checks that A advertises again.
/bin/ts-gate ble-probe --controller hci0 --connect any --seconds 15 --message "ping from hci0" --secure --hold-ms 14000 >/tmp/b.out 2>&1 &
bpid=$!
wait_for 20 grep -q '^holding the link' /tmp/b.out || fail "B did not get to hold the link: $(tr '\n' ' ' </tmp/b.out)"
timeout 13 /usr/bin/btmgmt -i hci0 find -l >/tmp/find2.out 2>&1
grep -q "dev_found: $HCI1" /tmp/find2.out || fail "hci1 did not advertise again while B was connected"
wait "$bpid"
status=$?
sed 's/^/B: /' /tmp/b.out
[ "$status" = 0 ] || fail "ble-probe --connect exited $status"
grep -q "^found $HCI1 ts-gate-0001 rssi .* advertising $UUID" /tmp/b.out || fail "B did not discover A by the service UUID"
grep -q "^connected to $HCI1 as central in .* (non-blocking connect): handle 0x" /tmp/b.out || fail "B did not connect"
grep -q '^link interval read: interval [0-9.]* ms' /tmp/b.out || fail "B did not read the interval"
grep -q '^link interval set in .*: interval 7.50 ms, latency 0, supervision timeout 2000 ms' /tmp/b.out || fail "B did not get 7.5 ms"
grep -q '^encrypted in .*: security level [234], key size 16' /tmp/b.out || fail "B's link was not encrypted"
grep -q "^mgmt: confirmed pairing with $HCI1" /tmp/b.out || fail "B did not answer SMP's confirmation"
grep -q "^mgmt: New Long Term Key for $HCI1" /tmp/b.out || fail "B did not bond with A"
grep -q '^received 19 bytes "echo ping from hci0", kernel stamp [0-9]* us before the read' /tmp/b.out || fail "B got no stamped echo"
grep -q "^link closed cleanly: Device Disconnected $HCI1" /tmp/b.out || fail "B did not see the link close"

wait_for 10 sh -c "! kill -0 $apid 2>/dev/null" || { fail "box A still running"; kill "$apid"; }
wait "$apid"; astatus=$?
sed 's/^/A: /' /tmp/a.out
[ "$astatus" = 0 ] || fail "ble-probe --listen exited $astatus"
grep -q "^accepted $HCI0 as peripheral: handle 0x" /tmp/a.out || fail "A did not accept B"
grep -q '^advertising again' /tmp/a.out || fail "A did not advertise again after accepting"
grep -q '^LE Connection Update Complete: .*interval 7.50 ms' /tmp/a.out || fail "A did not see the 7.5 ms update"
grep -q '^received 14 bytes "ping from hci0", kernel stamp [0-9]* us before the read' /tmp/a.out || fail "A got no stamped bytes"
grep -q "^link closed by $HCI0" /tmp/a.out || fail "A did not see the link close"
grep -q "^mgmt: confirmed pairing with $HCI0" /tmp/a.out || fail "A did not answer SMP's confirmation"
grep -q "^mgmt: New Long Term Key for $HCI0" /tmp/a.out || fail "A did not bond with B"

# --- btmon, independent: the controller put 7.5 ms in force -----------------------
if [ -n "${monpid:-}" ]; then
    kill "$monpid"; sleep 0.5
    /usr/bin/btmon -r /tmp/ble.snoop >/tmp/btmon.txt 2>&1
    grep -A6 'LE Connection Update Complete' /tmp/btmon.txt | head -14
    grep -A6 'LE Connection Update Complete' /tmp/btmon.txt | grep -q 'interval: 7.50 msec' ||
        fail "btmon did not decode an LE Connection Update Complete at 7.50 ms"
fi

# --- a peer that is not there: the box's own timeout, not the kernel's ~40 s ------
t0=$(cut -d' ' -f1 /proc/uptime)
/bin/ts-gate ble-probe --controller hci0 --connect 00:AA:01:09:09:09 --connect-timeout-ms 1500 >/tmp/c.out 2>&1
status=$?
t1=$(cut -d' ' -f1 /proc/uptime)
cat /tmp/c.out
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", b - a }')
[ "$status" = 1 ] || fail "a connect to an absent peer exited $status, want 1"
grep -q '^no connection to 00:AA:01:09:09:09 within 1500 ms' /tmp/c.out || fail "no timeout line for the absent peer"
[ "$secs" -le 5 ] || fail "the absent peer took $secs s (the box's timeout is 1.5 s)"
pass "ble-link: selftest, advertise, discover, connect, 7.5 ms, stamped bytes, close"
finish
