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
}
