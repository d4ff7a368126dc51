import CGateShim
import GateCore

/// Decodes JPEG frames to planar YUV 4:2:0 (YU12, luma plane first) through
/// libv4lconvert's v4lconvert_convert: the call libv4l2 makes on each DQBUF
/// of an MJPEG camera (V4L2Camera), with its libjpeg, so a recorded file is
/// decoded as the box decodes its camera's frames.
///
/// libv4lconvert wants a device to ask what it is. Here there is none, so
/// its device operations are the defaults but for ioctl, which answers
/// VIDIOC_QUERYCAP as a capture device with no controls and refuses the
/// rest: no flips, gamma or white balance are applied, as for any camera
/// libv4l has no quirks for.
///
/// The output planes are allocated here, once; decoding writes over them.
/// (libjpeg takes its working memory from malloc per frame in the host
/// build; the firmware's link trim keeps and reuses it: Tests/mjpeg.)
public final class MJPEGDecoder {
    public let width: Int
    public let height: Int
    private let operations: UnsafeMutablePointer<libv4l_dev_ops>
    private let converter: OpaquePointer
    private let planes: UnsafeMutablePointer<UInt8>
    private let planeBytes: Int
    private var source = v4l2_format()
    private var target = v4l2_format()

    public init(width: Int, height: Int) throws(GateError) {
        precondition(width > 0 && height > 0, "frame size")
        self.width = width
        self.height = height
        operations = .allocate(capacity: 1)
        operations.initialize(to: v4lconvert_get_default_dev_ops().pointee)
        operations.pointee.ioctl = { _, _, request, argument in
            if request == gate_VIDIOC_QUERYCAP(), let argument {
                let capability = argument.assumingMemoryBound(to: v4l2_capability.self)
                capability.pointee = v4l2_capability()
                capability.pointee.capabilities = UInt32(V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING)
                capability.pointee.device_caps = capability.pointee.capabilities
                return 0
            }
            gate_set_errno(EINVAL)
            return -1
        }
        // libv4lconvert keeps the operations' address: they live as long as it.
        guard let converter = v4lconvert_create_with_dev_ops(-1, nil, operations) else {
            operations.deallocate()
            throw GateError("libv4lconvert", "cannot set up a JPEG decoder")
        }
        self.converter = converter
        planeBytes = width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2)
        planes = .allocate(capacity: planeBytes)
        planes.initialize(repeating: 0, count: planeBytes)

        source.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        source.fmt.pix.width = UInt32(width)
        source.fmt.pix.height = UInt32(height)
        source.fmt.pix.pixelformat = gate_v4l2_fourcc(77, 74, 80, 71)  // MJPG
        source.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        target = source
        target.fmt.pix.pixelformat = gate_v4l2_fourcc(89, 85, 49, 50)  // YU12
        target.fmt.pix.bytesperline = UInt32(width)
        target.fmt.pix.sizeimage = UInt32(planeBytes)
    }

    deinit {
        v4lconvert_destroy(converter)
        operations.deallocate()
        planes.deallocate()
    }

    /// Decodes one JPEG of `width` x `height`; returns its luma plane (rows
    /// of `width` bytes), valid until the next call. Allocates nothing here.
    public func decode(_ jpeg: UnsafeRawBufferPointer) throws(GateError) -> UnsafePointer<UInt8> {
        source.fmt.pix.sizeimage = UInt32(jpeg.count)
        let result = v4lconvert_convert(converter, &source, &target,
                                        // libv4lconvert only reads the source, but its prototype is not const.
                                        UnsafeMutablePointer(mutating: jpeg.baseAddress?.assumingMemoryBound(to: UInt8.self)),
                                        Int32(jpeg.count),
                                        planes, Int32(planeBytes))
        guard result >= 0 else {
            throw GateError("libv4lconvert", MJPEGDecoder.trimmed(v4lconvert_get_error_message(converter)))
        }
        return UnsafePointer(planes)
    }

    /// libv4lconvert's message without its "v4l-convert: " prefix and newline.
    static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "cannot decode the JPEG" }
        var text = Substring(String(cString: message))
        if text.hasPrefix("v4l-convert: ") { text = text.dropFirst(13) }
        while let last = text.last, last == "\n" || last == " " { text = text.dropLast() }
        // libjpeg's own messages can come with a run of blanks before the table they print.
        return text.isEmpty ? "cannot decode the JPEG" : String(text)
    }
}
