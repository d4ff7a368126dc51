#!/bin/sh
# The time said after a crossing (issue 50, point 3) on real drivers
# (`ts-gate run`, static x86_64 firmware, the clips `make voice` writes): a
# touch-release start, then a rendered runner through vivid's output loop
# (as in the inject scenario) finishes the run. arecord's capture of
# snd-aloop must hold the crossing's beep and, 0.3 s after it, the run's
# time in words, for as long as those words' clips last.
# Needs /bin/ts-gate, /bin/board.conf, /bin/rig.raw (`ts-gate render
# rig-vivid-640x480-60 --raw`) and /usr/share/ts-gate/voice.
. /scenarios/lib.sh
. /scenarios/box.sh
setup_box_devices

V=/usr/bin/v4l2-ctl
FRAME_BYTES=307200
VOICE=/usr/share/ts-gate/voice
[ -f $VOICE/point.wav ] || fail "no voice clips in $VOICE"
$V -d /dev/video1 -o 1 --set-dv-bt-timings index=0 >/dev/null || fail "vivid output: cannot set 640x480p59.94"
$V -d /dev/video0 --set-ctrl loop_video=1,osd_text_mode=2,timestamp_source=1 || fail "vivid capture: cannot loop the output"
$V -d /dev/video1 --set-fmt-video-out width=640,height=480,pixelformat=GREY || fail "vivid output: cannot take GREY 640x480"

start_capture 20

# The clip with 5 s of its empty lane at the front (its first frame
# repeated, in place of its own first second), so the pad's start comes
# well before the runner, 7 s in, however slowly the box starts under
# emulation. The clip plays first, so the box learns that lane as its
# background (as in the inject scenario); then the box starts, is armed
# with the pad held, and the pad's release starts the run.
head -c $FRAME_BYTES /bin/rig.raw >/tmp/frame0.raw
n=0; while [ $n -lt 300 ]; do cat /tmp/frame0.raw; n=$((n + 1)); done >/tmp/clip.raw
dd if=/bin/rig.raw bs=$FRAME_BYTES skip=60 2>/dev/null >>/tmp/clip.raw
rm /tmp/frame0.raw
frames=$(( $(stat -c %s /tmp/clip.raw) / FRAME_BYTES ))
$V -d /dev/video1 --stream-out-mmap --stream-from /tmp/clip.raw --stream-count "$frames" >/tmp/out.log 2>&1 &
streamer=$!
sleep 0.5
echo "start.type = touch-release" >/tmp/announce.conf
start_box /tmp/announce.conf
grep -q "voice: 56 of 56 clips from $VOICE" /tmp/run.out || fail "the box did not load its voice: $(grep voice /tmp/run.out)"
press_touch
tap_button
wait_for 5 grep -q "gate armed: hold the touch pad" /tmp/run.out || fail "a tap did not arm the box: $(tail -n 3 /tmp/run.out)"
sleep 0.3
release_touch
wait_for 5 grep -q "touch-release start (held .*): run 1 started" /tmp/run.out || fail "the pad's release started no run: $(tail -n 3 /tmp/run.out)"
say "$(grep 'run 1 started' /tmp/run.out)"
wait "$streamer" || fail "the clip could not be fed to the camera: $(tail -n 3 /tmp/out.log)"
wait_for 5 grep -q "^\[ *[0-9.]*\] run 1  " /tmp/run.out || fail "the runner did not finish the run: $(tail -n 5 /tmp/run.out)"
sleep 4
stop_box
end_capture
results=/tmp/results/session-0001/results.jsonl
[ "$(grep -c '"type":"crossing"' "$results")" = 1 ] || fail "expected one crossing, the box recorded $(grep -c '"type":"crossing"' "$results")"
elapsed=$(grep '"type":"crossing"' "$results" | sed 's/.*"elapsedMs":\([0-9.]*\).*/\1/')
say "run 1: $elapsed ms"

# Sounds: runs of samples between at least 0.1 s of digital silence, as
# "onset end" frame pairs (the words of one time have 60 ms between them).
bursts=$(sounds /tmp/capture.raw $((RATE / 10)))
say "sounds (onset end, frames): $(echo $bursts | tr '\n' ' ')"
set -- $bursts
[ $# = 4 ] || fail "expected 2 sounds in the capture (the crossing's beep, then its time), found $(($# / 2))"
# The words said: their clips' lengths as the box trims them are not known
# here, so the check is on the gaps and a plausible length for "N point N N".
verdict=$(awk -v r=$RATE -v b0="$1" -v b1="$2" -v w0="$3" -v w1="$4" 'BEGIN {
    beep = (b1 - b0 + 1) / r; after = (w0 - b0) / r; words = (w1 - w0 + 1) / r
    ok = (beep > 0.09 && beep <= 0.101 && after > 0.299 && after < 0.302 && words > 0.8 && words < 4)
    printf "%s beep %.3f s, words %.3f s after its onset, for %.3f s\n", ok ? "ok" : "bad", beep, after, words }')
say "$verdict"
case "$verdict" in ok*) ;; *) fail "announcement: $verdict" ;; esac
finish
