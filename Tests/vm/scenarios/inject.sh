#!/bin/sh
# Frames of a rendered runner through a real V4L2 driver (`ts-gate run`,
# static x86_64 firmware): the clip is streamed into vivid's HDMI output
# (v4l2-ctl) and looped into the HDMI capture the box reads, both at
# 640x480p59.94 (box.sh sets the capture's). The box must time exactly one crossing, and time it where
# the same detector finds it in the same frames read from a file, moved to
# the moment vivid showed them: output frame n is on show from the
# timestamp of output frame n-1 to its own (vivid stamps an output buffer
# with the clock when its thread releases it). The capture copies what is on
# show when its thread wakes, on a jiffy (4 ms at the guest's HZ 250), but
# stamps the copy with the scheduled start of the frame period nearest that
# jiffy (stream start + k periods, k rounded): the stamp can lead the copy by
# half a period plus the wake's lag, or trail it by half a period. Under
# emulation vivid's capture and output threads (not locked to each other)
# also stall now and then, repeating or skipping frames. Measured over 12
# boots (three firmware builds, and CI): 1.0-15.3 ms, with 0-3 periods
# skipped by the output.
# The box's time must lie within [-1 period, 4 periods] of the on-show
# time: it catches a gross wrong time base (a clip clock or the loop's own
# time: seconds off; a stamp read in the wrong unit or as the wrong clock),
# not an error of one period nor the detector's accuracy, which is issue 3's
# harness.
# Needs /bin/ts-gate, /bin/board.conf, /bin/rig.raw (`ts-gate render
# rig-vivid-640x480-60 --raw`) and /bin/rig.expected (the crossing's time in
# the clip's time base, from `ts-gate replay` of the same clip).
. /scenarios/lib.sh
. /scenarios/box.sh
setup_box_devices

V=/usr/bin/v4l2-ctl
FRAME_BYTES=307200
PERIOD_NS=16683350          # 1 / 59.94 Hz
$V -d /dev/video1 -o 1 --set-dv-bt-timings index=0 >/dev/null || fail "vivid output: cannot set 640x480p59.94"
# vivid's end-of-frame stamps are its start-of-frame plus a whole period
# (synthetic); ask for start-of-exposure stamps, which the box takes as they come.
$V -d /dev/video0 --set-ctrl loop_video=1,osd_text_mode=2,timestamp_source=1 || fail "vivid capture: cannot loop the output"
$V -d /dev/video1 --set-fmt-video-out width=640,height=480,pixelformat=GREY || fail "vivid output: cannot take GREY 640x480"

# The clip first, so the box learns its empty lane as the background from
# its first frame (not vivid's test pattern), then the box, armed well
# before the runner arrives 3 s into the clip.
frames=$(( $(stat -c %s /bin/rig.raw) / FRAME_BYTES ))
$V -d /dev/video1 --stream-out-mmap --stream-from /bin/rig.raw --stream-count "$frames" --verbose >/tmp/out.log 2>&1 &
streamer=$!
sleep 0.5   # its first frame is on show once it has started (its log may be buffered)
time_clip "$streamer" "the injected clip" /tmp/out.log

box=$(grep '"type":"crossing"' "$results" | head -n1 | sed 's/.*"crossingTimeNanos":\([0-9]*\).*/\1/')
expected=$(cat /bin/rig.expected)
# Each output buffer's timestamp is when it left the screen: clip frame n
# was on show from stamp n-1 to stamp n. Frame n of the file is the n-th
# buffer v4l2-ctl dequeues (--verbose prints each), not the one of sequence
# n: when emulation stalls vivid's output thread for a period, it counts
# the period in its sequence but still shows the next buffer. Read by
# sequence, four such skips put the on-show time four periods early, and a
# box exactly on time failed as 77-82 ms late (the frames it timed, matched
# by their fronts, had been on show 1-17 ms before its stamps).
verdict=$(sed -n 's/^out dqbuf: *[0-9]* seq: *\([0-9]*\) .* ts: \([0-9]*\.[0-9]*\) .*/\1 \2/p' /tmp/out.log |
    awk -v box="$box" -v clip="$expected" -v p="$PERIOD_NS" '
    { ts[NR - 1] = $2 * 1e9; skipped = $1 - (NR - 1) }
    function start(n) { return (n - 1) in ts ? ts[n - 1] : ((n in ts) ? ts[n] - p : -1) }
    END {
        f = clip * 60 / 1e9; n = int(f)
        a = start(n); b = start(n + 1)
        if (a < 0 || b < 0) { print "bad: no output stamps around frame " n; exit }
        onshow = a + (f - n) * (b - a)
        g = 180; physical = start(g)
        d = (box - onshow) / 1e6
        ok = (d >= -p / 1e6 && d <= 4 * p / 1e6)
        printf "%s box %.3f ms after the frames it timed were on show (window %.1f to %.1f ms); %.3f ms after the physical crossing; %d periods skipped by the output\n",
            ok ? "ok" : "bad", d, -p / 1e6, 4 * p / 1e6, (box - physical) / 1e6, skipped }')
say "$verdict"
case "$verdict" in ok*) ;; *) fail "injected crossing: $verdict" ;; esac
finish
