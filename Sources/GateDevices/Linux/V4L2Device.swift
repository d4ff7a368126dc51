import CGateShim

/// A V4L2 video node, reached directly or through libv4l2. Every ioctl and
/// mapping goes through `ioctl`, `map` and `unmap`, so the camera code is
/// the same either way; libv4l2 is only asked for when the camera sends
/// MJPEG, which its libv4lconvert decodes into planar YUV 4:2:0 on DQBUF.
///
/// Errno table: ENOENT (no such node), EACCES (not in the video group),
/// ENOTTY (not a V4L2 device), EBUSY (another program streams from it),
/// ENODEV/EIO (the camera went away).
public struct V4L2Device {
    public let path: String
    public let descriptor: FileDescriptor
    /// The fd is registered with libv4l2 (v4l2_fd_open): its calls go there.
    public let throughLibv4l2: Bool

    public static func open(_ path: String, throughLibv4l2: Bool = false) throws(GateError) -> V4L2Device {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, [.readWrite, .nonBlocking])
        } catch {
            throw GateError(path, error, doing: "opening the camera")
        }
        guard throughLibv4l2 else { return V4L2Device(path: path, descriptor: descriptor, throughLibv4l2: false) }
        // The enum-format emulation lists what libv4lconvert can make too.
        guard v4l2_fd_open(descriptor.rawValue, Int32(V4L2_ENABLE_ENUM_FMT_EMULATION)) >= 0 else {
            let errno = Errno.current
            descriptor.close()
            throw GateError(path, errno, doing: "opening the camera through libv4l2")
        }
        return V4L2Device(path: path, descriptor: descriptor, throughLibv4l2: true)
    }

    public func close() {
        if throughLibv4l2 { _ = v4l2_close(descriptor.rawValue) } else { descriptor.close() }
    }

    /// ioctl(2), or v4l2_ioctl for a libv4l2 fd. Returns -1 with errno set on failure.
    public func ioctl(_ request: UInt, _ argument: UnsafeMutableRawPointer) -> Int32 {
        throughLibv4l2 ? gate_libv4l2_ioctl_ptr(descriptor.rawValue, request, argument)
            : gate_ioctl_ptr(descriptor.rawValue, request, argument)
    }

    /// Maps a buffer the driver (or libv4l2) offers at `offset`; nil with errno set on failure.
    func map(length: Int, offset: UInt32) -> UnsafeMutableRawPointer? {
        let mapped = throughLibv4l2
            ? v4l2_mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor.rawValue, Int64(offset))
            : mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor.rawValue, off_t(offset))
        guard gate_is_map_failed(mapped) == 0 else { return nil }
        return mapped
    }

    func unmap(_ buffer: UnsafeMutableRawPointer?, length: Int) {
        if throughLibv4l2 { _ = v4l2_munmap(buffer, length) } else { _ = munmap(buffer, length) }
    }

    public struct Capability: Equatable {
        public var driver: String
        public var card: String
        public var canCapture: Bool
        public var canStream: Bool
    }

    /// VIDIOC_QUERYCAP: what the node is.
    public func capability() throws(GateError) -> Capability {
        var cap = v4l2_capability()
        guard ioctl(gate_VIDIOC_QUERYCAP(), &cap) == 0 else {
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
            if ioctl(gate_VIDIOC_ENUM_FMT(), &desc) != 0 {
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
