import CAccuracyJPEG
import GateCore
import GateDevices

/// `--mjpeg Q`: each rendered frame goes through JPEG at quality Q with
/// 4:2:2 chroma (libjpeg, as a UVC webcam encodes) and back through
/// libv4lconvert (MJPEGDecoder, the box's own decode of an MJPEG camera)
/// before the detectors see it: issue 55's compressed frames, in process.
/// One per clip (the size changes from clip to clip); buffers allocated here.
final class MJPEGRoundTrip {
    let quality: Int
    let width: Int
    let height: Int
    private let decoder: MJPEGDecoder
    private let jpeg: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// JPEG bytes made so far, and frames, for the mean size reported.
    private(set) var totalBytes = 0
    private(set) var frames = 0

    init(quality: Int, width: Int, height: Int) throws(GateError) {
        self.quality = quality
        self.width = width
        self.height = height
        decoder = try MJPEGDecoder(width: width, height: height)
        capacity = 4 * width * height + 65536
        jpeg = .allocate(capacity: capacity)
    }

    deinit { jpeg.deallocate() }

    /// The frame's luma as the box would see it from the camera; valid
    /// until the next call.
    func pass(_ luma: UnsafePointer<UInt8>) throws(GateError) -> UnsafePointer<UInt8> {
        let size = accuracy_jpeg_encode_422(luma, Int32(width), Int32(height), Int32(quality), jpeg, capacity)
        guard size > 0 else { throw GateError("libjpeg", "a frame did not fit in " + String(capacity) + " bytes") }
        totalBytes += size
        frames += 1
        return try decoder.decode(UnsafeRawBufferPointer(start: jpeg, count: size))
    }
}
