import CGateShim
import Testing
@testable import GateDevices

@Suite struct V4L2DeviceTests {
    @Test func fourccCodesReadAsTheirLetters() {
        #expect(V4L2Device.fourcc(gate_v4l2_fourcc(71, 82, 69, 89)) == "GREY")
        #expect(V4L2Device.fourcc(gate_v4l2_fourcc(77, 74, 80, 71)) == "MJPG")
        // Unprintable bytes are shown as '?', not passed to the terminal.
        #expect(V4L2Device.fourcc(0x0001_4159) == "YA??")
    }

    @Test func aMissingNodeIsNamedWithItsErrno() {
        #expect(throws: GateError("/dev/video99", Errno.noEntry, doing: "opening the camera")) {
            try V4L2Device.open("/dev/video99")
        }
    }

    @Test func aNodeThatIsNotAVideoDeviceFailsQuerycapWithENOTTY() throws {
        let device = try V4L2Device.open("/dev/null")
        defer { device.close() }
        #expect(throws: GateError("/dev/null", Errno(ENOTTY), doing: "VIDIOC_QUERYCAP")) { try device.capability() }
    }

    /// A node that cannot take the control ioctls: every lock is reported
    /// refused with the errno, none is claimed, nothing throws (streaming
    /// goes on with the camera's own settings). vivid proves the locks in the VM.
    @Test func controlLocksOnANonVideoNodeAreRefusedByErrno() throws {
        let device = try V4L2Device.open("/dev/null")
        defer { device.close() }
        let locks = V4L2Controls.lock(device, exposureMs: 1)
        #expect(locks.map(\.name) == ["exposure", "white balance", "focus", "gain"])
        #expect(locks.allSatisfy { $0.outcome == .refused(Errno(ENOTTY)) })
        #expect(V4L2Controls.summary(locks).hasPrefix("exposure refused (Inappropriate ioctl for device), white balance refused"))
    }

    @Test func lockTextsReadAsAPersonExpects() {
        #expect(V4L2Controls.Lock(name: "exposure", outcome: .locked(value: "manual 1.0 ms")).text == "exposure manual 1.0 ms")
        #expect(V4L2Controls.Lock(name: "focus", outcome: .notOffered).text == "focus not offered")
    }
}
