import CGateShim
import GateCore

/// A V4L2 camera streaming into mmap buffers: the kernel fills them, the
/// loop reads luma in place and hands them back. Buffers are mapped once at
/// start; dequeue and requeue only cycle them (no copy, no allocation).
/// GREY and YUYV are read in place. MJPEG goes through libv4l2, which asks
/// the camera for MJPEG and decodes each frame into its own mapped YUV 4:2:0
/// buffer on DQBUF: a decode per frame (libjpeg allocates inside it), so the
/// in-place formats are the ones to pick when a camera offers them.
///
/// Time base: a frame's timestamp is the mid-exposure instant of its top
/// row on CLOCK_MONOTONIC, from the kernel's buffer timestamp: a
/// start-of-exposure stamp plus half the exposure, or an end-of-frame stamp
/// minus the readout and half the exposure.
///
/// Errno table: EAGAIN on DQBUF (no frame yet: back to poll), EINVAL on
/// S_PARM (the input has no frame-rate control, e.g. DV inputs: the rate is
/// the input's), ENODEV/EIO (the camera went away: the caller disarms and
/// reopens), EBUSY on REQBUFS (another program streams).
public struct V4L2Camera: FrameSource {
    public let format: FrameFormat
    public private(set) var droppedFrames = 0
    public let device: V4L2Device
    /// What the driver said about its timestamps, for the selftest.
    public private(set) var timestampSource = "unknown"
    /// The automatic controls locked before streaming, and how each went.
    public let controls: [V4L2Controls.Lock]
    private let pixelStride: Int
    private let rowStride: Int
    private let buffers: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    private let lengths: UnsafeMutablePointer<Int>
    private let bufferCount: Int
    private var held: UInt32 = UInt32.max
    private var lastSequence: UInt32?
    private var streaming = false

    /// Opens, sets format and rate, maps `bufferCount` buffers and starts streaming.
    public init(settings: BoxSettings, bufferCount wanted: Int = 4) throws(GateError) {
        // MJPEG: libv4l2 decodes it into planar YUV 4:2:0 (luma plane first).
        let device = try V4L2Device.open(settings.cameraDevice, throughLibv4l2: settings.cameraFormat == .mjpeg)
        let path = settings.cameraDevice
        func failure(_ errno: Errno, _ action: String) -> GateError {
            device.close()
            return GateError(path, errno, doing: action)
        }
        if let input = settings.cameraInput {
            var index = Int32(input)
            guard device.ioctl(gate_VIDIOC_S_INPUT(), &index) == 0 else {
                throw failure(Errno.current, "VIDIOC_S_INPUT " + String(input))
            }
        }
        let fourcc: UInt32
        switch settings.cameraFormat {
        case .grey: fourcc = gate_v4l2_fourcc(71, 82, 69, 89)     // GREY
        case .yuyv: fourcc = gate_v4l2_fourcc(89, 85, 89, 86)     // YUYV
        case .mjpeg: fourcc = gate_v4l2_fourcc(89, 85, 49, 50)    // YU12, from libv4lconvert
        }
        var fmt = v4l2_format()
        fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        fmt.fmt.pix.width = UInt32(settings.cameraWidth)
        fmt.fmt.pix.height = UInt32(settings.cameraHeight)
        fmt.fmt.pix.pixelformat = fourcc
        fmt.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        guard device.ioctl(gate_VIDIOC_S_FMT(), &fmt) == 0 else {
            throw failure(Errno.current, "VIDIOC_S_FMT " + String(settings.cameraWidth) + "x" + String(settings.cameraHeight))
        }
        guard fmt.fmt.pix.pixelformat == fourcc else {
            device.close()
            throw GateError(path, "the camera will not deliver " + settings.cameraFormat.name + " (it offers " + V4L2Device.fourcc(fmt.fmt.pix.pixelformat) + ")")
        }
        guard Int(fmt.fmt.pix.width) == settings.cameraWidth && Int(fmt.fmt.pix.height) == settings.cameraHeight else {
            device.close()
            throw GateError(path, "the camera will not deliver " + String(settings.cameraWidth) + "x" + String(settings.cameraHeight)
                + " (it offers " + String(fmt.fmt.pix.width) + "x" + String(fmt.fmt.pix.height) + ")")
        }
        // Frame rate: S_PARM where the input has one; DV inputs take theirs from the timings.
        var parm = v4l2_streamparm()
        parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        parm.parm.capture.timeperframe = v4l2_fract(numerator: 1, denominator: UInt32(settings.cameraFps))
        var fps = settings.cameraFps
        if device.ioctl(gate_VIDIOC_S_PARM(), &parm) == 0, parm.parm.capture.timeperframe.numerator > 0 {
            fps = Int((Double(parm.parm.capture.timeperframe.denominator) / Double(parm.parm.capture.timeperframe.numerator)).rounded())
        }
        controls = V4L2Controls.lock(device, exposureMs: settings.cameraExposureMs)
        pixelStride = settings.cameraFormat == .yuyv ? 2 : 1
        rowStride = Int(fmt.fmt.pix.bytesperline)
        format = FrameFormat(width: settings.cameraWidth, height: settings.cameraHeight, fps: fps,
                             readoutNanos: Int64(settings.cameraReadoutMs * 1e6), exposureNanos: Int64(settings.cameraExposureMs * 1e6))

        var request = v4l2_requestbuffers()
        request.count = UInt32(max(4, wanted))
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        guard device.ioctl(gate_VIDIOC_REQBUFS(), &request) == 0 else {
            throw failure(Errno.current, "VIDIOC_REQBUFS")
        }
        guard request.count >= 2 else {
            device.close()
            throw GateError(path, "the driver gave " + String(request.count) + " buffers, at least 2 are needed")
        }
        bufferCount = Int(request.count)
        buffers = .allocate(capacity: bufferCount)
        lengths = .allocate(capacity: bufferCount)
        self.device = device
        for i in 0..<bufferCount {
            var buffer = v4l2_buffer()
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            buffer.index = UInt32(i)
            guard device.ioctl(gate_VIDIOC_QUERYBUF(), &buffer) == 0 else {
                let error = GateError(path, Errno.current, doing: "VIDIOC_QUERYBUF")
                release(mapped: i)
                throw error
            }
            guard let mapped = device.map(length: Int(buffer.length), offset: buffer.m.offset) else {
                let error = GateError(path, Errno.current, doing: "mapping buffer " + String(i))
                release(mapped: i)
                throw error
            }
            buffers[i] = mapped
            lengths[i] = Int(buffer.length)
            guard device.ioctl(gate_VIDIOC_QBUF(), &buffer) == 0 else {
                let error = GateError(path, Errno.current, doing: "VIDIOC_QBUF")
                release(mapped: i + 1)
                throw error
            }
        }
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        guard device.ioctl(gate_VIDIOC_STREAMON(), &type) == 0 else {
            let error = GateError(path, Errno.current, doing: "VIDIOC_STREAMON")
            release(mapped: bufferCount)
            throw error
        }
        streaming = true
    }

    private func release(mapped: Int) {
        for i in 0..<mapped { device.unmap(buffers[i], length: lengths[i]) }
        buffers.deallocate()
        lengths.deallocate()
        device.close()
    }

    /// Stops streaming, unmaps the buffers and closes the node.
    public mutating func stop() {
        if streaming {
            var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
            _ = device.ioctl(gate_VIDIOC_STREAMOFF(), &type)
            streaming = false
        }
        release(mapped: bufferCount)
    }

    public mutating func dequeue() throws(GateError) -> LumaFrame? {
        var buffer = v4l2_buffer()
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        if device.ioctl(gate_VIDIOC_DQBUF(), &buffer) != 0 {
            let errno = Errno.current
            if errno == .wouldBlock || errno == .interrupted { return nil }
            throw GateError(device.path, errno, doing: "VIDIOC_DQBUF")
        }
        held = buffer.index
        if let last = lastSequence, buffer.sequence > last + 1 { droppedFrames += Int(buffer.sequence - last - 1) }
        lastSequence = buffer.sequence
        let stamp = Int64(buffer.timestamp.tv_sec) * 1_000_000_000 + Int64(buffer.timestamp.tv_usec) * 1000
        let startOfExposure = buffer.flags & UInt32(V4L2_BUF_FLAG_TSTAMP_SRC_MASK) == UInt32(V4L2_BUF_FLAG_TSTAMP_SRC_SOE)
        timestampSource = startOfExposure ? "start of exposure" : "end of frame"
        let topRowMidExposure = startOfExposure ? stamp + format.exposureNanos / 2
            : stamp - format.readoutNanos - format.exposureNanos / 2
        let pixels = buffers[Int(buffer.index)]!.assumingMemoryBound(to: UInt8.self)
        return LumaFrame(pixels: pixels, width: format.width, height: format.height, rowStride: rowStride,
                         pixelStride: pixelStride, timestampNanos: topRowMidExposure, sequence: buffer.sequence)
    }

    public mutating func requeue() throws(GateError) {
        guard held != UInt32.max else { return }
        var buffer = v4l2_buffer()
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        buffer.index = held
        held = UInt32.max
        guard device.ioctl(gate_VIDIOC_QBUF(), &buffer) == 0 else {
            throw GateError(device.path, Errno.current, doing: "VIDIOC_QBUF")
        }
    }
}
