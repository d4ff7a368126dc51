import CGateShim

/// A V4L2 video node. Errno table: ENOENT (no such node), EACCES (not in
/// the video group), ENOTTY (not a V4L2 device), EBUSY (another program
/// streams from it), ENODEV/EIO (the camera went away).
public struct V4L2Device {
    public let path: String
    public let descriptor: FileDescriptor

    public static func open(_ path: String) throws(GateError) -> V4L2Device {
        do {
            return V4L2Device(path: path, descriptor: try FileDescriptor.open(path, [.readWrite, .nonBlocking]))
        } catch {
            throw GateError(path, error, doing: "opening the camera")
        }
    }

    public func close() { descriptor.close() }

    public struct Capability: Equatable {
        public var driver: String
        public var card: String
        public var canCapture: Bool
        public var canStream: Bool
    }

    /// VIDIOC_QUERYCAP: what the node is.
    public func capability() throws(GateError) -> Capability {
        var cap = v4l2_capability()
        guard gate_ioctl_ptr(descriptor.rawValue, gate_VIDIOC_QUERYCAP(), &cap) == 0 else {
            throw GateError(path, Errno.current, doing: "VIDIOC_QUERYCAP")
        }
        let caps = cap.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? cap.device_caps : cap.capabilities
        return Capability(driver: V4L2Device.text(&cap.driver), card: V4L2Device.text(&cap.card),
                          canCapture: caps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0,
                          canStream: caps & UInt32(V4L2_CAP_STREAMING) != 0)
    }

    /// VIDIOC_ENUM_FMT: the fourcc codes the capture queue offers ("GREY", "YUYV", "MJPG").
    public func captureFormats() throws(GateError) -> [String] {
        var names: [String] = []
        var index: UInt32 = 0
        while true {
            var desc = v4l2_fmtdesc()
            desc.index = index
            desc.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            if gate_ioctl_ptr(descriptor.rawValue, gate_VIDIOC_ENUM_FMT(), &desc) != 0 {
                let errno = Errno.current
                if errno == .invalidArgument { break }   // past the last format
                throw GateError(path, errno, doing: "VIDIOC_ENUM_FMT")
            }
            names.append(V4L2Device.fourcc(desc.pixelformat))
            index += 1
        }
        return names
    }

    public static func fourcc(_ code: UInt32) -> String {
        var text = ""
        for shift in [0, 8, 16, 24] {
            let byte = UInt8((code >> UInt32(shift)) & 0xFF)
            text.unicodeScalars.append(Unicode.Scalar(byte >= 0x20 && byte < 0x7F ? byte : 0x3F))
        }
        return text
    }

    /// A fixed C char array (NUL-terminated) as a String.
    static func text<T>(_ field: inout T) -> String {
        withUnsafeBytes(of: &field) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[0..<end], as: UTF8.self)
        }
    }
}
