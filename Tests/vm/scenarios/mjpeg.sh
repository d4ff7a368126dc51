#!/bin/sh
# A camera that sends only MJPEG (`ts-gate run` and `selftest`, static x86_64
# firmware): v4l2loopback, fed a rendered runner as a UVC webcam would send
# it (JPEG frames, YCbCr 4:2:2), is the box's camera with camera.format =
# MJPEG. The box opens it through libv4l2, whose libv4lconvert decodes each
# frame inside the static binary. The box must time exactly one crossing.
# This proves the decode on a real driver; when the crossing is timed is the
# inject scenario's job (v4l2loopback stamps frames when they are written,
# and the writer here is a shell loop).
# Needs /bin/ts-gate, /bin/board.conf, /bin/rig.mjpeg and
# /bin/rig.mjpeg.frame-bytes (Tests/vm/mjpeg-clip.sh of the inject clip).
. /scenarios/lib.sh
. /scenarios/box.sh
setup_box_devices

DEV=/dev/video5
load v4l2loopback video_nr=5 exclusive_caps=1 max_buffers=8 card_label=mjpeg-webcam
wait_for 5 test -c "$DEV" || fail "v4l2loopback: no $DEV"
cat >/tmp/mjpeg.conf <<CONF
camera.device = $DEV
camera.format = MJPEG
camera.input = 0
CONF

pad=$(cat /bin/rig.mjpeg.frame-bytes)
frames=$(( $(stat -c %s /bin/rig.mjpeg) / pad ))
# One writer fd for the whole clip (the device keeps its format while a
# writer has it open); one write() per frame, about 60 a second.
exec 3>"$DEV"
/usr/bin/v4l2-ctl -d "$DEV" --set-fmt-video-out width=640,height=480,pixelformat=MJPG ||
    fail "v4l2loopback: cannot take MJPG 640x480"
write_frames() {   # write_frames FIRST COUNT
    _i=$1
    while [ "$_i" -lt $(($1 + $2)) ] && [ "$_i" -lt "$frames" ]; do
        dd if=/bin/rig.mjpeg bs="$pad" skip="$_i" count=1 2>/dev/null >&3 || return 1
        sleep 0.016
        _i=$((_i + 1))
    done
}
write_frames 0 1 || fail "cannot write an MJPEG frame into $DEV"

# The device now offers only MJPEG.
formats=$(/usr/bin/v4l2-ctl -d "$DEV" --list-formats 2>&1)
echo "$formats" | grep -q "'MJPG'" || fail "v4l2loopback does not offer MJPG: $formats"
! echo "$formats" | grep -q "'YUYV'\|'GREY'" || fail "v4l2loopback offers more than MJPG: $formats"

# The clip (empty lane, a runner from 3 s) while the box starts and arms.
write_frames 1 100000 &
writer=$!
time_clip "$writer" "the MJPEG clip" "" /tmp/mjpeg.conf

# selftest on the same camera: it names MJPG as what the camera sends and
# streams through libv4l2. (Its frame rate and dropped count read oddly here:
# v4l2loopback first hands a new reader the last frame it still holds, whose
# sequence number is far behind the writer's, and the writer shares the one
# emulated CPU with the decoding.)
write_frames 0 100000 &
writer=$!
/bin/ts-gate selftest --board /bin/board.conf --config /tmp/mjpeg.conf >/tmp/selftest.out 2>&1 ||
    fail "selftest on the MJPEG camera exited $?: $(grep '^camera' /tmp/selftest.out)"
kill "$writer" 2>/dev/null
grep '^camera' /tmp/selftest.out
grep -q '^camera  *yes .*MJPG' /tmp/selftest.out || fail "selftest did not stream the MJPEG camera: $(grep '^camera' /tmp/selftest.out)"
exec 3>&-
finish
