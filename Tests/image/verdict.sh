#!/bin/bash
# The image boot test, inside the booted image (installed as
# /usr/lib/ts-gate/image-test.sh, started by ts-gate-image-test.service only
# when the kernel command line has ts-gate.test). Prints "check NAME
# ok|FAIL" lines, then "VERDICT image PASS|FAIL", then powers the VM off
# (or, at the end of a whole first boot, resets it like a pulled plug). The
# host (Tests/image/boot-test.sh) attaches a second disk, TESTDISK, holding
# gpio-sim.ko (Debian's kernel has no gpio-sim) and the VM rig's board file.
set -o pipefail
failed=()
say() { echo "image-test: $*"; }
check() {   # check NAME COMMAND...: ok when COMMAND succeeds
    local name=$1; shift
    if "$@"; then say "check $name ok"; else say "check $name FAIL"; failed+=("$name"); fi
}
wait_for() {   # wait_for SECONDS COMMAND...
    local t=$1; shift
    for _ in $(seq "$t"); do "$@" && return 0; sleep 1; done
    return 1
}
results_hash() { cat /var/lib/ts-gate/session-*/results.jsonl 2>/dev/null | sha256sum | cut -c1-16; }
finish() {   # finish [reset]: the verdict, then power off (or a hard reset)
    if [ ${#failed[@]} -eq 0 ]; then
        say "VERDICT image PASS"
    else
        # What a person needs to see why, from a log the host keeps.
        journalctl -b -p warning --no-pager | tail -n 40 | sed 's/^/image-test: warning| /'
        say "VERDICT image FAIL: ${failed[*]}"
    fi
    if [ "${1:-}" = reset ]; then
        # As a pulled plug: no sync, no unmount. qemu -no-reboot then exits.
        say "results $(results_hash), hard reset"
        echo b >/proc/sysrq-trigger
    fi
    systemctl --no-block poweroff
    exit 0
}

# The box's devices, as the VM rig makes them, then the service on them.
start_on_rig_devices() {
    systemctl stop ts-gate
    mkdir -p /run/ts-gate-test
    mount -o ro /dev/disk/by-label/TESTDISK /run/ts-gate-test || { say "no test disk"; failed+=(test-disk); finish; }
    modprobe vivid n_devs=1 node_types=0x101
    wait_for 10 test -c /dev/video0
    v4l2-ctl -d /dev/video0 -i 3 --set-dv-bt-timings index=0 >/dev/null
    modprobe i2c-dev
    # Debian's arm64 kernel has no i2c-stub: the test disk carries one.
    modprobe i2c-stub chip_addr=0x68 2>/dev/null || insmod /run/ts-gate-test/i2c-stub.ko chip_addr=0x68
    bus=
    for a in /sys/class/i2c-adapter/i2c-*; do
        grep -q "SMBus stub" "$a/name" 2>/dev/null && bus=${a##*-}
    done
    i2cset -y "$bus" 0x68 0x75 0x68               # WHO_AM_I of an MPU-6050
    i2cset -y "$bus" 0x68 0x3f 0x40 b             # +1 g on z: at rest
    insmod /run/ts-gate-test/gpio-sim.ko
    sim=/sys/kernel/config/gpio-sim/box
    mkdir "$sim" "$sim/gpio-bank0"
    echo 4 >"$sim/gpio-bank0/num_lines"
    echo 1 >"$sim/live"
    lines=/sys/devices/platform/$(cat "$sim/dev_name")/$(cat "$sim/gpio-bank0/chip_name")
    echo pull-up >"$lines/sim_gpio0/pull"; echo pull-up >"$lines/sim_gpio3/pull"
    chip=$(cat "$sim/gpio-bank0/chip_name")
    modprobe snd-aloop
    wait_for 10 test -c /dev/snd/pcmC0D0p
    card=$(grep -l Loopback /proc/asound/card*/id | sed 's|.*/card\([0-9]*\)/id|\1|')
    udevadm settle
    # The rig's board file, pointed at these devices; --config stays the boot
    # partition's file, as the host edited it.
    sed -e "s/^imu.bus = .*/imu.bus = $bus/" -e "s/^gpio.chip = .*/gpio.chip = $chip/" \
        -e "s/^audio.device = .*/audio.device = hw:$card,0/" /run/ts-gate-test/board.conf >/run/ts-gate-test-board.conf
    mkdir -p /run/systemd/system/ts-gate.service.d
    cat >/run/systemd/system/ts-gate.service.d/test.conf <<DROPIN
[Service]
ExecStart=
ExecStart=/usr/bin/ts-gate run --board /run/ts-gate-test-board.conf --config /etc/ts-gate/ts-gate.conf --data-dir /var/lib/ts-gate
DROPIN
    systemctl daemon-reload
    systemctl reset-failed ts-gate
    systemctl start ts-gate
}

systemctl is-system-running --wait >/dev/null
# ts-gate.expect=HASH: the boot after the hard reset; HASH is the results
# files' as the first boot printed them.
expect=$(sed -n 's/.*ts-gate.expect=\([0-9a-f]*\).*/\1/p' /proc/cmdline)
if [ -n "$expect" ]; then
    say "after the reset, up $(cut -d' ' -f1 /proc/uptime) s"
    check data-mounted-after-reset sh -c 'findmnt -no OPTIONS /var/lib/ts-gate | grep -qw rw'
    check results-intact-after-reset test "$(results_hash)" = "$expect"
    # The host broke ts-gate.conf on the boot partition before this boot, at
    # line ts-gate.badline: the settings are refused by that line.
    bad=$(sed -n 's/.*ts-gate.badline=\([0-9]*\).*/\1/p' /proc/cmdline)
    if [ -n "$bad" ]; then
        selftest=$(/usr/bin/ts-gate selftest 2>&1)
        say "selftest| $selftest"
        check broken-config-refused-by-line sh -c 'printf "%s\n" "$1" | grep -q "ts-gate.conf line $2"' _ "$selftest" "$bad"
        check service-names-the-line wait_for 20 sh -c 'journalctl -b -u ts-gate --no-pager | grep -q "ts-gate.conf line $1"' _ "$bad"
        # The host also changed gate.position to 0.3 in that file: the box
        # runs on the last good configuration (0.4125), blinking the error
        # pattern, and says so with the journal's warning priority.
        start_on_rig_devices
        check service-active-on-last-good wait_for 30 systemctl is-active -q ts-gate
        say "status: $(systemctl show -p StatusText --value ts-gate)"
        check status-says-last-good sh -c 'systemctl show -p StatusText --value ts-gate | grep -q "last good settings"'
        # READY=1 comes as the loop starts, just before its header record.
        newest_header() { head -n 1 "$(ls -d /var/lib/ts-gate/session-*/results.jsonl | tail -n 1)"; }
        wait_for 10 sh -c "$(declare -f newest_header); newest_header | grep -q session"
        header=$(newest_header)
        say "session header: $header"
        check last-good-gate-position sh -c 'printf "%s\n" "$1" | grep -q "\"gatePosition\":0.4125"' _ "$header"
        check refusal-is-a-warning wait_for 10 sh -c 'journalctl -b -u ts-gate -p warning --no-pager | grep -q "settings refused: .*ts-gate.conf line $1"' _ "$bad"
        journalctl -b -u ts-gate -p warning --no-pager | tail -n 5 | sed 's/^/image-test: warning| /'
        # The host also set debug.ssh = on and debug.console = on, with its
        # public key in authorized_keys on the boot partition.
        journalctl -b -u ts-gate-debug --no-pager | grep 'ts-gate-debug:' | sed 's/^.*ts-gate-debug: /image-test: debug| /'
        install -m 0600 /run/ts-gate-test/debug_key /run/debug_key
        ssh_in() { [ "$(ssh -i /run/debug_key -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
                        -o LogLevel=ERROR root@127.0.0.1 id -u 2>/dev/null)" = 0 ]; }
        check debug-ssh-login wait_for 20 ssh_in
        check debug-ssh-keys-only sh -c 'sshd -T 2>/dev/null | grep -qx "passwordauthentication no"'
        # agetty --autologin hands over to login at once: root's processes
        # on the serial console (the kernel's last console=: ttyS0, ttyAMA0).
        tty=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^console=\([^,]*\).*/\1/p' | tail -n 1)
        check debug-console-shell wait_for 20 sh -c 'systemctl is-active -q "ts-gate-debug-console@$1" && pgrep -t "$1" -u root >/dev/null' _ "$tty"
        systemctl status --no-pager "ts-gate-debug-console@$tty" 2>&1 | tail -n 6 | sed 's/^/image-test: console| /'
        # The host named an access point too (wifi.ssid, wifi.passphrase):
        # hostapd serves it on the first radio at 192.168.4.1 with a DHCP
        # server, and the second radio, as a phone would, sees it, WPA2.
        journalctl -b -u ts-gate-wifi --no-pager | grep 'ts-gate-wifi:' | sed 's/^.*ts-gate-wifi: /image-test: wifi| /'
        check wifi-ap-up wait_for 30 sh -c 'iw dev wlan0 info | grep -q "type AP" && iw dev wlan0 info | grep -q "ssid ts-gate test"'
        # (No D-Bus on the box, so no networkctl: the kernel's own tables.)
        check wifi-ap-address wait_for 10 grep -q "192.168.4.1" /proc/net/fib_trie
        check wifi-dhcp-server wait_for 10 awk '$2 ~ /:0043$/ { found = 1 } END { exit !found }' /proc/net/udp
        # The phone's radio, brought up by networkd as it would any link
        # (every step bounded: a hung tool must not hang the verdict).
        printf '[Match]\nName=wlan1\n\n[Link]\nActivationPolicy=always-up\n\n[Network]\nLinkLocalAddressing=no\n' \
            >/run/systemd/network/60-image-test-phone.network
        timeout 30 systemctl restart systemd-networkd || say "wifi| restarting systemd-networkd for the phone's radio failed"
        seen() {
            timeout 10 iw dev wlan1 scan trigger >/dev/null 2>&1
            sleep 2
            timeout 10 iw dev wlan1 scan dump 2>/dev/null |
                awk '/^BSS/ { rsn = 0 } /RSN:/ { rsn = 1 } /SSID: ts-gate test$/ { ssid = 1 } END { exit !(ssid && rsn) }'
        }
        check wifi-seen-by-a-phone wait_for 10 seen
        timeout 5 iw dev 2>&1 | sed 's/^/image-test: wifi| /'
        check wifi-passphrase-not-logged sh -c '! journalctl -b --no-pager | grep -q "sprint-gate-42"'
    fi
    finish
fi
say "system $(systemctl is-system-running), up $(cut -d' ' -f1 /proc/uptime) s"
for unit in $(systemctl --failed --no-legend --plain | cut -d' ' -f1); do
    journalctl -b -u "$unit" --no-pager | tail -n 15 | sed "s/^/image-test: failed $unit| /"
done

# --- the read-only root and the data partition, grown to fill the disk ---
check root-read-only sh -c '! touch /.probe 2>/dev/null && findmnt -no OPTIONS / | grep -qw ro'
check data-writable runuser -u ts-gate -- sh -c 'echo probe >/var/lib/ts-gate/.probe && sync'
data_mib=$(( $(findmnt -bno SIZE /var/lib/ts-gate || echo 0) / 1048576 ))
say "data partition: ${data_mib} MiB"
check data-grown test "$data_mib" -gt 100
check boot-config-linked test -r /etc/ts-gate/ts-gate.conf
# Debug access off unless ts-gate.conf asks: no login on the serial line, no sshd.
check no-serial-login sh -c '! pgrep agetty >/dev/null || ! pgrep -a agetty | grep -q ttyS'
nothing_on_port_22() { awk '$4 == "0A" && $2 ~ /:0016$/ { found = 1 } END { exit found }' /proc/net/tcp /proc/net/tcp6; }
check ssh-off sh -c '! systemctl is-active -q ssh'
check nothing-on-port-22 nothing_on_port_22
# No access point until ts-gate.conf names one (the radios are
# mac80211_hwsim's, loaded by the test's kernel command line).
if [ -e /sys/class/net/wlan0 ]; then
    check wifi-off-without-ssid sh -c '! pgrep -x hostapd >/dev/null && journalctl -b -u ts-gate-wifi --no-pager | grep -q "no wifi.ssid"'
fi

# --- selftest on the bare VM: it names what is missing ---
selftest=$(/usr/bin/ts-gate selftest 2>&1)
printf '%s\n' "$selftest" | sed 's/^/image-test: selftest| /'
check selftest-names-camera sh -c 'printf "%s\n" "$1" | grep -q "/dev/video0" && printf "%s\n" "$1" | grep -q "selftest FAILED"' _ "$selftest"
# With no devices the service cannot start: systemd keeps retrying it.
check service-retries-without-devices sh -c '[ "$(systemctl show -p NRestarts --value ts-gate)" -ge 1 ]'

# --- the box's devices, as the VM rig makes them, then the service ---
start_on_rig_devices
check service-active wait_for 30 systemctl is-active -q ts-gate
say "status: $(systemctl show -p StatusText --value ts-gate)"
check service-status-line sh -c 'systemctl show -p StatusText --value ts-gate | grep -q "press the button"'
# The host set gate.position = 0.4125 in the boot partition's ts-gate.conf,
# as a person would on a laptop: the service's session header carries it.
header=$(head -n 1 "$(ls -d /var/lib/ts-gate/session-*/results.jsonl | tail -n 1)")
say "session header: $header"
check config-from-boot-partition sh -c 'printf "%s\n" "$1" | grep -q "\"gatePosition\":0.4125"' _ "$header"
check service-user sh -c '[ "$(stat -c %U "/proc/$(systemctl show -p MainPID --value ts-gate)")" = ts-gate ]'
# The image turns the coach's page on (http = 0.0.0.0:80 in ts-gate.conf):
# the box, as its own user, serves it on port 80, as a phone would ask.
page() {
    exec 3<>/dev/tcp/127.0.0.1/80 || return 1
    printf 'GET / HTTP/1.1\r\nHost: ts-gate\r\nConnection: close\r\n\r\n' >&3
    timeout 5 cat <&3 >/run/page.html
    exec 3<&-
    head -n 1 /run/page.html | grep -q '^HTTP/1.1 200 OK' && grep -q '<title>ts-gate</title>' /run/page.html
}
check http-page-on-port-80 wait_for 10 page
say "page: $(head -n 1 /run/page.html 2>/dev/null | tr -d '\r'), $(wc -c </run/page.html 2>/dev/null) bytes"

# --- a hung loop: the watchdog kills it, systemd starts it again ---
pid=$(systemctl show -p MainPID --value ts-gate)
restarts=$(systemctl show -p NRestarts --value ts-gate)
# MainPID 0 (no service) must not become `kill -STOP 0`: this very script.
[ "$pid" -gt 1 ] || { failed+=(no-main-pid); finish; }
kill -STOP "$pid"
say "stopped pid $pid at $(cut -d' ' -f1 /proc/uptime) s"
came_back() {
    local now
    now=$(systemctl show -p MainPID --value ts-gate)
    [ "$now" != 0 ] && [ "$now" != "$pid" ] && systemctl is-active -q ts-gate
}
check watchdog-restart wait_for 60 came_back
say "running again as pid $(systemctl show -p MainPID --value ts-gate) at $(cut -d' ' -f1 /proc/uptime) s, restarts $restarts -> $(systemctl show -p NRestarts --value ts-gate)"
check watchdog-logged sh -c 'journalctl -b -u ts-gate --no-pager | grep -q "watchdog"'
journalctl -b -u ts-gate --no-pager | tail -n 25 | sed 's/^/image-test: journal| /'
# The sessions' results files were written more than 10 s ago (ext4 commits
# every 5 s); the host boots again after the reset and compares them.
check results-written test -s /var/lib/ts-gate/session-0001/results.jsonl
finish reset
