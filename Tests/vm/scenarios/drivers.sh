#!/bin/sh
# Rig self-check: every kernel test driver the gate's VM tests use comes up in
# the guest (vivid, i2c-stub, gpio-sim, snd-aloop, btvirt on hci_vhci).
# Not a product test. On failure the verdict names the broken drivers.
. /scenarios/lib.sh

check_vivid() {
    load vivid n_devs=1 node_types=0x101 || return
    if ! wait_for 5 test -c /dev/video1 || ! test -c /dev/video0; then
        fail "vivid: no /dev/video0 + /dev/video1"; return
    fi
    cap=$(cat /sys/class/video4linux/video0/name)
    out=$(cat /sys/class/video4linux/video1/name)
    case "$cap/$out" in
        vivid*/vivid*) pass "vivid: video0=$cap video1=$out" ;;
        *) fail "vivid: unexpected nodes video0=$cap video1=$out" ;;
    esac
}

check_i2c() {
    load i2c-dev || return
    load i2c-stub chip_addr=0x68 || return
    bus=
    for d in /sys/bus/i2c/devices/i2c-*; do
        [ "$(cat "$d/name" 2>/dev/null)" = "SMBus stub driver" ] && bus=${d##*/i2c-}
    done
    [ -n "$bus" ] || { fail "i2c-stub: no stub adapter"; return; }
    wait_for 5 test -c "/dev/i2c-$bus" || { fail "i2c-stub: no /dev/i2c-$bus"; return; }
    /usr/sbin/i2cset -y "$bus" 0x68 0x6b 0xa5 || { fail "i2c-stub: i2cset failed"; return; }
    v=$(/usr/sbin/i2cget -y "$bus" 0x68 0x6b) || { fail "i2c-stub: i2cget failed"; return; }
    [ "$v" = 0xa5 ] || { fail "i2c-stub: register 0x6b reads $v, wrote 0xa5"; return; }
    pass "i2c-stub: bus $bus, 0x68 reg 0x6b = $v"
}

check_gpio() {
    load gpio-sim || return
    c=/sys/kernel/config/gpio-sim/rig
    if ! mkdir "$c" "$c/gpio-bank0"; then fail "gpio-sim: configfs mkdir failed"; return; fi
    echo 4 >"$c/gpio-bank0/num_lines"
    i=0
    for n in start finish laser buzzer; do
        mkdir "$c/gpio-bank0/line$i" && echo "$n" >"$c/gpio-bank0/line$i/name"
        i=$((i + 1))
    done
    echo 1 >"$c/live" || { fail "gpio-sim: live=1 failed"; return; }
    chip=$(cat "$c/gpio-bank0/chip_name")
    dev=$(cat "$c/dev_name")
    wait_for 5 test -c "/dev/$chip" || { fail "gpio-sim: no /dev/$chip"; return; }
    sim=/sys/devices/platform/$dev/$chip
    echo pull-up >"$sim/sim_gpio0/pull" || { fail "gpio-sim: cannot set pull"; return; }
    v=$(cat "$sim/sim_gpio0/value")
    [ "$v" = 1 ] || { fail "gpio-sim: pulled-up line reads $v"; return; }
    chips=$(echo /dev/gpiochip*)
    pass "gpio-sim: $dev /dev/$chip (all: $chips)"
}

check_alsa() {
    load snd-aloop || return
    grep -q Loopback /proc/asound/cards || { fail "snd-aloop: no Loopback in /proc/asound/cards"; return; }
    /usr/bin/aplay -l 2>&1 | grep -q 'card [0-9]*: Loopback' ||
        { fail "snd-aloop: aplay -l does not list Loopback"; return; }
    pass "snd-aloop: $(grep Loopback /proc/asound/cards | head -n1 | sed 's/^ *//')"
}

check_bt() {
    for m in af_alg algif_hash algif_skcipher sha3_generic sha512_generic ctr \
             jitterentropy_rng drbg cmac ecb ecdh_generic hci_vhci; do
        load "$m" || return
    done
    wait_for 5 test -c /dev/vhci || { fail "btvirt: no /dev/vhci"; return; }
    /usr/bin/btvirt -L -l2 >/tmp/btvirt.log 2>&1 &
    btpid=$!
    if ! wait_for 10 test -e /sys/class/bluetooth/hci1; then
        fail "btvirt: no hci1 ($(tr '\n' ' ' </tmp/btvirt.log))"
        kill "$btpid" 2>/dev/null; return
    fi
    /usr/bin/hciconfig hci0 up || fail "btvirt: hciconfig hci0 up failed"
    /usr/bin/hciconfig hci1 up || fail "btvirt: hciconfig hci1 up failed"
    n=0
    for h in /sys/class/bluetooth/hci*; do
        case ${h##*/} in *[!a-z0-9]*) ;; hci*) n=$((n + 1)) ;; esac
    done
    [ "$n" = 2 ] || fail "btvirt: $n hci devices, want 2"
    /usr/bin/hciconfig hci0 | grep -q 'UP RUNNING' || fail "btvirt: hci0 is not UP RUNNING"
    /usr/bin/hciconfig | grep -E '^hci|BD Address'
    pass "btvirt: $n hci devices"
    kill "$btpid" 2>/dev/null
}

check_vivid
check_i2c
check_gpio
check_alsa
check_bt
finish
