# The gate box's devices in the VM, as board/vm-rig/board.conf names them.
# Use after lib.sh: . /scenarios/box.sh; setup_box_devices
#   camera   vivid's HDMI input on /dev/video0 at 640x480p59.94 (a quarter of
#            its default 720p60's pixels: the box detects on one emulated CPU)
#   imu      i2c-stub on /dev/i2c-0 answering as an MPU-6050 at 0x68, at rest (+1 g on z)
#   gpio     gpio-sim chip gpiochip0: line 0 button, 1 LED, 2 buzzer, 3 touch pad
#   speaker  snd-aloop, hw:0,0

# VIVID_DEVS=2 before it gives a second camera (/dev/video2, its own HDMI
# input) for a second box in the same VM.
setup_box_devices() {
    load vivid n_devs=${VIVID_DEVS:-1} node_types=0x101
    wait_for 5 test -c /dev/video0 || fail "vivid: no /dev/video0"
    /usr/bin/v4l2-ctl -d /dev/video0 -i 3 --set-dv-bt-timings index=0 >/dev/null ||
        fail "vivid: cannot set the HDMI input to 640x480p59.94"

    load i2c-dev
    load i2c-stub chip_addr=0x68
    wait_for 5 test -c /dev/i2c-0 || fail "i2c-stub: no /dev/i2c-0"
    /usr/sbin/i2cset -y 0 0x68 0x75 0x68 || fail "i2c-stub: cannot preset WHO_AM_I"
    set_accel 0x0000 0x0000 0x4000

    load gpio-sim
    GPIO_SIM=/sys/kernel/config/gpio-sim/box
    mkdir "$GPIO_SIM" "$GPIO_SIM/gpio-bank0" || fail "gpio-sim: configfs mkdir failed"
    echo 4 >"$GPIO_SIM/gpio-bank0/num_lines"
    i=0
    for n in button led buzzer touch; do
        mkdir "$GPIO_SIM/gpio-bank0/line$i" && echo "$n" >"$GPIO_SIM/gpio-bank0/line$i/name"
        i=$((i + 1))
    done
    echo 1 >"$GPIO_SIM/live" || fail "gpio-sim: live=1 failed"
    wait_for 5 test -c /dev/gpiochip0 || fail "gpio-sim: no /dev/gpiochip0"
    GPIO_LINES=/sys/devices/platform/$(cat "$GPIO_SIM/dev_name")/$(cat "$GPIO_SIM/gpio-bank0/chip_name")
    # The button and the touch pad are wired to ground with a pull-up: released is high.
    echo pull-up >"$GPIO_LINES/sim_gpio0/pull"
    echo pull-up >"$GPIO_LINES/sim_gpio3/pull"

    load snd-aloop
    wait_for 5 test -c /dev/snd/pcmC0D0p || fail "snd-aloop: no /dev/snd/pcmC0D0p"
}

# set_accel X Y Z: raw 16-bit MPU-6050 readings (16384 = 1 g), big-endian at 0x3b.
set_accel() {
    _r=0x3b
    for _v in "$1" "$2" "$3"; do
        /usr/sbin/i2cset -y 0 0x68 "$_r" "$(( (_v >> 8) & 0xff ))" b || fail "i2c-stub: cannot set $_r"
        _r=$(( _r + 1 ))
        /usr/sbin/i2cset -y 0 0x68 "$_r" "$(( _v & 0xff ))" b || fail "i2c-stub: cannot set $_r"
        _r=$(( _r + 1 ))
    done
}

press_button() { echo pull-down >"$GPIO_LINES/sim_gpio0/pull"; }
release_button() { echo pull-up >"$GPIO_LINES/sim_gpio0/pull"; }
press_touch() { echo pull-down >"$GPIO_LINES/sim_gpio3/pull"; }
release_touch() { echo pull-up >"$GPIO_LINES/sim_gpio3/pull"; }
# tap_button: a short press (a tap: arm, or start a countdown).
tap_button() { press_button; sleep 0.2; release_button; }

# start_box [CONFIG]: `ts-gate run` on the rig's board (and CONFIG) in the
# background, output in /tmp/run.out, results under /tmp/results; waits for
# its session to open. Sets $pid.
start_box() {
    /bin/ts-gate run --board /bin/board.conf ${1:+--config "$1"} --data-dir /tmp/results >/tmp/run.out 2>&1 &
    pid=$!
    wait_for 15 grep -q "press the button to arm" /tmp/run.out || fail "the box did not start: $(cat /tmp/run.out)"
}

# time_clip FEEDER WHAT [LOG [CONFIG]]: while the background job FEEDER
# feeds the camera a clip with one runner, starts the box (with CONFIG),
# arms it, waits for the feeder (LOG: its output, quoted if it fails) and
# for the crossing, stops the box. The box must have recorded exactly one
# crossing (the frames it lost are printed); sets $results to its results.jsonl.
time_clip() {
    start_box ${4:+"$4"}
    tap_button
    wait_for 5 grep -q "gate armed" /tmp/run.out || fail "the box did not arm on $2: $(tail -n 3 /tmp/run.out)"
    wait "$1" || fail "$2 could not be fed to the camera${3:+: $(tail -n 3 "$3")}"
    wait_for 5 grep -q "clock running" /tmp/run.out || fail "no crossing timed from $2: $(tail -n 5 /tmp/run.out)"
    sleep 1
    stop_box
    results=/tmp/results/session-0001/results.jsonl
    _count=$(grep -c '"type":"crossing"' "$results")
    [ "$_count" = 1 ] || fail "expected exactly one crossing from $2, the box recorded $_count"
    say "frames the box lost: $(grep '"type":"crossing"' "$results" | sed 's/.*"droppedFrames":\([0-9]*\).*/\1/')"
}

# stop_box: SIGTERM, as the service manager stops it; the box must exit 0.
# Prints what it said.
stop_box() {
    kill -TERM "$pid"
    wait "$pid"
    _status=$?
    cat /tmp/run.out
    [ "$_status" = 0 ] || fail "ts-gate run exited $_status after SIGTERM"
}

# mono_now: CLOCK_MONOTONIC in nanoseconds (the kernel's ktime_get, the
# clock of GPIO edge stamps and of the box's records).
mono_now() { awk '/^now at/ { print $3; exit }' /proc/timer_list; }
line_value() { cat "$GPIO_LINES/sim_gpio$1/value"; }

# led_samples N SECONDS: N samples of the LED line, SECONDS apart, as a string of 0/1.
led_samples() { line_samples 1 "$1" "$2"; }
# line_samples LINE N SECONDS: the same for any line (2: buzzer).
line_samples() {
    _s=""
    _n=0
    while [ "$_n" -lt "$2" ]; do _s="$_s$(line_value "$1")"; sleep "$3"; _n=$((_n + 1)); done
    echo "$_s"
}

# setup_two_boxes: the rig's devices for two boxes in one VM: vivid's second
# instance (/dev/video2) and a second gpio-sim chip (gpiochip1) for the
# second box, which shares the IMU and snd-aloop; its board file is
# /tmp/board2.conf. press_button2/release_button2 hold its button.
setup_two_boxes() {
    VIVID_DEVS=2 setup_box_devices
    wait_for 5 test -c /dev/video2 || fail "vivid: no second camera /dev/video2"
    /usr/bin/v4l2-ctl -d /dev/video2 -i 3 --set-dv-bt-timings index=0 >/dev/null ||
        fail "vivid: cannot set the second HDMI input to 640x480p59.94"
    GPIO_SIM2=/sys/kernel/config/gpio-sim/box2
    mkdir "$GPIO_SIM2" "$GPIO_SIM2/gpio-bank0" || fail "gpio-sim: second chip: configfs mkdir failed"
    echo 4 >"$GPIO_SIM2/gpio-bank0/num_lines"
    echo 1 >"$GPIO_SIM2/live" || fail "gpio-sim: second chip not live"
    wait_for 5 test -c /dev/gpiochip1 || fail "gpio-sim: no /dev/gpiochip1"
    GPIO_LINES2=/sys/devices/platform/$(cat "$GPIO_SIM2/dev_name")/$(cat "$GPIO_SIM2/gpio-bank0/chip_name")
    echo pull-up >"$GPIO_LINES2/sim_gpio0/pull"
    echo pull-up >"$GPIO_LINES2/sim_gpio3/pull"
    sed -e 's|^camera.device = .*|camera.device = /dev/video2|' -e 's|^gpio.chip = .*|gpio.chip = gpiochip1|' \
        /bin/board.conf >/tmp/board2.conf
}
press_button2() { echo pull-down >"$GPIO_LINES2/sim_gpio0/pull"; }
release_button2() { echo pull-up >"$GPIO_LINES2/sim_gpio0/pull"; }

# start_box2 CONFIG: the second box, output in /tmp/run2.out, results under /tmp/results2.
start_box2() {
    /bin/ts-gate run --board /tmp/board2.conf --config "$1" --data-dir /tmp/results2 >/tmp/run2.out 2>&1 &
    pid2=$!
    wait_for 15 grep -q "press the button to arm" /tmp/run2.out || fail "the second box did not start: $(cat /tmp/run2.out)"
}

stop_box2() {
    kill -TERM "$pid2"
    wait "$pid2" || fail "the second box's ts-gate run exited $? after SIGTERM"
}

# --- the speaker, heard through snd-aloop's loopback ---------------------------
RATE=48000
CAPTURE_STATUS=/proc/asound/card0/pcm1c/sub0/status

# start_capture SECONDS: arecord of the loopback (mono S16 at $RATE) into
# /tmp/capture.raw for SECONDS, in the background, capturing first so the
# loopback then holds the box's playback to it. Sets $rec.
start_capture() {
    /usr/bin/arecord -D hw:0,1 -f S16_LE -r $RATE -c 1 -t raw -d "$1" /tmp/capture.raw 2>/tmp/arecord.err &
    rec=$!
    wait_for 5 grep -q RUNNING "$CAPTURE_STATUS" || fail "the loopback capture did not start: $(cat /tmp/arecord.err)"
}

# end_capture: waits for arecord to finish; a capture that lost frames fails.
end_capture() {
    wait "$rec"
    grep -q "overrun" /tmp/arecord.err && fail "arecord lost frames (overrun): $(cat /tmp/arecord.err)"
    return 0
}

# read_capture_status OUT: readings of the capture's kernel status while
# arecord runs, each followed, in the same read-out, by the kernel's
# CLOCK_MONOTONIC ("now at" of /proc/timer_list): a moment just after
# hw_ptr was read (arecord leaves its stream's timestamps off).
read_capture_status() {
    _n=0
    while [ $_n -lt 600 ] && kill -0 "$rec" 2>/dev/null; do
        cat "$CAPTURE_STATUS" /proc/timer_list
        _n=$((_n + 1))
    done >"$1"
}

# capture_epoch OUT: sets $epoch, when captured frame 0 was taken (s,
# CLOCK_MONOTONIC), from the readings read_capture_status wrote to OUT. By
# the time "now at" was read, at least hw_ptr frames were in; both the
# position's lag (jiffies) and the read-out only make an estimate late, so
# the earliest one is the best. Ten readings or fewer fail.
capture_epoch() {
    _epoch=$(awk -v rate="$RATE" '
        /^state:/ { running = ($2 == "RUNNING"); hw = "" }
        /^hw_ptr/ { hw = $3 }
        /^now at/ { if (running && hw != "") { e = $3 / 1e9 - hw / rate; if (n == 0 || e < best) best = e; n++ }; hw = "" }
        END { if (n > 10) printf "%.9f %d\n", best, n }' "$1")
    [ -n "$_epoch" ] || fail "too few running status readings of the capture: $(head -n 12 "$1")"
    say "capture epoch and readings: $_epoch"
    epoch=${_epoch%% *}
}

# sounds RAW GAP: the sounds in a raw mono S16 capture, runs of non-zero
# samples between at least GAP frames of digital silence, one "onset end"
# frame pair a line.
sounds() {
    od -An -v -t d2 -w2 "$1" | awk -v gap="$2" '
        $1 != 0 { if (seen && i - last > gap) { print first, last; first = i } else if (!seen) first = i; last = i; seen = 1 }
        { i++ }
        END { if (seen) print first, last }'
}
