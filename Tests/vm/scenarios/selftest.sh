#!/bin/sh
# `ts-gate selftest` on the vm-rig board against real kernel drivers: vivid
# (camera), i2c-stub answering as an MPU-6050 (IMU), gpio-sim (button, LED,
# buzzer lines), snd-aloop (speaker), set up by box.sh. Needs /bin/ts-gate (the static x86_64
# firmware) and /bin/board.conf (board/vm-rig/board.conf) as extra files.
. /scenarios/lib.sh

. /scenarios/box.sh
setup_box_devices

/usr/bin/v4l2-ctl -d /dev/video0 -C gain_automatic | grep -q ': 1$' || fail "vivid should start with automatic gain on"
/usr/sbin/i2cset -y 0 0x68 0x1a 0x05 b   # CONFIG: something the driver must overwrite
/usr/sbin/i2cset -y 0 0x68 0x6b 0x40 b   # PWR_MGMT_1: asleep, as a real MPU-6050 powers up
/bin/ts-gate selftest --board /bin/board.conf >/tmp/selftest.out 2>&1
status=$?
cat /tmp/selftest.out
[ "$status" = 0 ] || fail "ts-gate selftest exited $status"
for device in camera imu buttons lights speaker; do
    grep -q "^$device *yes " /tmp/selftest.out || fail "selftest did not find the $device"
done
grep -q '^imu .*MPU-6050 at 0x68, |a| = 1.00 g' /tmp/selftest.out || fail "selftest did not read 1 g from the MPU-6050"
# The driver configured the chip as an MPU-6050: awake, 44 Hz low-pass, +-2 g;
# and wrote nothing meant for another chip (the LIS3DH's CTRL_REG1/CTRL_REG4).
for expect in 0x6b:0x00 0x1a:0x03 0x1c:0x00 0x20:0x00 0x23:0x00; do
    reg=${expect%%:*}
    got=$(/usr/sbin/i2cget -y 0 0x68 "$reg" b)
    [ "$got" = "${expect##*:}" ] || fail "after selftest MPU-6050 register $reg = $got, want ${expect##*:}"
done
grep -q '^camera .*vivid' /tmp/selftest.out || fail "selftest did not see vivid"
# Streamed through mmap buffers at vivid's 60 Hz, measured from kernel timestamps
# (vivid stamps by 4 ms jiffies and the VM is emulated: within 10%).
rate=$(sed -n 's/^camera .* frames at \([0-9]*\)\.[0-9] fps.*/\1/p' /tmp/selftest.out)
[ -n "$rate" ] && [ "$rate" -ge 54 ] && [ "$rate" -le 66 ] || fail "selftest measured '$rate' fps from vivid's 60 Hz input"
# The automatic controls are locked where the camera has them: vivid has
# automatic gain only, and the selftest left it off.
grep -q '^camera .*exposure not offered, white balance not offered, focus not offered, gain locked' /tmp/selftest.out ||
    fail "selftest did not report the camera's controls locked"
/usr/bin/v4l2-ctl -d /dev/video0 -C gain_automatic | grep -q ': 0$' || fail "vivid's automatic gain is still on: $(/usr/bin/v4l2-ctl -d /dev/video0 -C gain_automatic)"
grep -q '^buttons .*button=0(button)' /tmp/selftest.out || fail "selftest did not name the button line"
grep -q '^lights .*led=1(led) buzzer=2(buzzer)' /tmp/selftest.out || fail "selftest did not name the LED and buzzer lines"
grep -q '^speaker .*Loopback PCM' /tmp/selftest.out || fail "selftest did not see snd-aloop's PCM"

# camera.format = MJPEG streams through libv4l2 (the static binary carries
# it and libv4lconvert). vivid sends no MJPEG, so libv4l2 hands on the
# YUV 4:2:0 it asks for: this proves the libv4l2 fd, ioctl, mmap and
# timestamp path; the mjpeg scenario decodes real MJPEG from v4l2loopback.
echo "camera.format = MJPEG" >/tmp/mjpeg.conf
/bin/ts-gate selftest --board /bin/board.conf --config /tmp/mjpeg.conf >/tmp/selftest-mjpeg.out 2>&1 ||
    fail "selftest with camera.format = MJPEG exited $?: $(grep '^camera' /tmp/selftest-mjpeg.out)"
grep '^camera' /tmp/selftest-mjpeg.out
grep -q '^camera  *yes .*no MJPG: libv4l2 converts from what it sends; [0-9]* frames at ' /tmp/selftest-mjpeg.out ||
    fail "selftest did not stream through libv4l2: $(grep '^camera' /tmp/selftest-mjpeg.out)"
rate=$(sed -n 's/^camera .* frames at \([0-9]*\)\.[0-9] fps.*/\1/p' /tmp/selftest-mjpeg.out)
[ -n "$rate" ] && [ "$rate" -ge 54 ] && [ "$rate" -le 66 ] || fail "through libv4l2, selftest measured '$rate' fps from vivid's 60 Hz input"

# A required device that is missing fails the selftest, naming it.
rmmod snd-aloop
/bin/ts-gate selftest --board /bin/board.conf >/tmp/selftest2.out 2>&1
status=$?
[ "$status" = 1 ] || fail "selftest without the speaker exited $status, want 1"
grep -q '^speaker *NO .*No such file or directory' /tmp/selftest2.out || { cat /tmp/selftest2.out; fail "selftest did not report the missing speaker"; }
finish
