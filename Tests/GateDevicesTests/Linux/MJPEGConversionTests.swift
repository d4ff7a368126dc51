import CGateShim
import Foundation
import Testing
@testable import GateDevices

/// The decode a camera that only sends MJPEG goes through (libv4l2 hands
/// each frame to libv4lconvert, which the firmware links statically): a
/// frame encoded by libjpeg's cjpeg, as a UVC camera would (4:2:2), comes
/// back as planar YUV 4:2:0 whose luma plane matches the original. No VM
/// driver sends MJPEG (vivid does not), so this is where the decode is proven;
/// the VM's run scenario proves the libv4l2 streaming path on vivid.
@Suite struct MJPEGConversionTests {
    static let width = 320, height = 240

    /// A lane-like test card: a sky-to-ground gradient, a dark torso-sized
    /// block and a bright stripe, with sharp edges a detector would use.
    static func luma() -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var v = 200 - y * 120 / height
                if x >= 140 && x < 176 && y >= 60 && y < 200 { v = 40 }
                if x >= 250 && x < 254 { v = 250 }
                pixels[y * width + x] = UInt8(v)
            }
        }
        return pixels
    }

    static func encode(_ luma: [UInt8]) throws -> [UInt8] {
        // One directory per call: tests that encode run in parallel.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ts-gate-mjpeg-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var ppm = Array("P6\n\(width) \(height)\n255\n".utf8)
        for v in luma { ppm += [v, v, v] }
        let input = dir.appendingPathComponent("frame.ppm"), output = dir.appendingPathComponent("frame.jpg")
        try Data(ppm).write(to: input)
        let cjpeg = Process()
        cjpeg.executableURL = URL(fileURLWithPath: "/usr/bin/cjpeg")
        cjpeg.arguments = ["-quality", "90", "-sample", "2x1", "-outfile", output.path, input.path]
        try cjpeg.run()
        cjpeg.waitUntilExit()
        #expect(cjpeg.terminationStatus == 0)
        return [UInt8](try Data(contentsOf: output))
    }

    @Test func libv4lconvertDecodesAnMJPEGFrameToTheLumaItWasMadeFrom() throws {
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/cjpeg"), "cjpeg (libjpeg-turbo-progs) is needed: make deps installs it")
        let original = Self.luma()
        let jpeg = try Self.encode(original)
        #expect(jpeg.count > 1000 && jpeg[0] == 0xFF && jpeg[1] == 0xD8)

        // libv4lconvert asks its device what it is and what it sends: these
        // device operations answer as a UVC camera that only sends MJPEG.
        var ops = v4lconvert_get_default_dev_ops().pointee
        ops.ioctl = { _, _, request, argument in
            if request == gate_VIDIOC_QUERYCAP(), let cap = argument?.assumingMemoryBound(to: v4l2_capability.self) {
                cap.pointee = v4l2_capability()
                cap.pointee.capabilities = UInt32(V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING)
                cap.pointee.device_caps = cap.pointee.capabilities
                return 0
            }
            if request == gate_VIDIOC_ENUM_FMT(), let desc = argument?.assumingMemoryBound(to: v4l2_fmtdesc.self),
               desc.pointee.index == 0 {
                desc.pointee.pixelformat = gate_v4l2_fourcc(77, 74, 80, 71)
                desc.pointee.flags = UInt32(V4L2_FMT_FLAG_COMPRESSED)
                return 0
            }
            errno = EINVAL
            return -1
        }
        let converter = try #require(v4lconvert_create_with_dev_ops(-1, nil, &ops))
        defer { v4lconvert_destroy(converter) }
        var source = v4l2_format()
        source.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        source.fmt.pix.width = UInt32(Self.width); source.fmt.pix.height = UInt32(Self.height)
        source.fmt.pix.pixelformat = gate_v4l2_fourcc(77, 74, 80, 71)      // MJPG
        source.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        source.fmt.pix.sizeimage = UInt32(jpeg.count)
        var target = source
        target.fmt.pix.pixelformat = gate_v4l2_fourcc(89, 85, 49, 50)      // YU12, what V4L2Camera asks libv4l2 for
        target.fmt.pix.bytesperline = UInt32(Self.width)
        target.fmt.pix.sizeimage = UInt32(Self.width * Self.height * 3 / 2)
        var yuv = [UInt8](repeating: 0, count: Self.width * Self.height * 3 / 2)
        var jpegBytes = jpeg
        let written = yuv.withUnsafeMutableBufferPointer { out in
            jpegBytes.withUnsafeMutableBufferPointer { src in
                v4lconvert_convert(converter, &source, &target, src.baseAddress, Int32(src.count), out.baseAddress, Int32(out.count))
            }
        }
        #expect(written == Int32(yuv.count), "v4lconvert_convert: \(String(cString: v4lconvert_get_error_message(converter)))")

        // The luma plane comes first: compare it with what was encoded.
        var total = 0, worst = 0
        for i in 0..<original.count {
            let d = abs(Int(yuv[i]) - Int(original[i]))
            total += d; worst = max(worst, d)
        }
        let mean = Double(total) / Double(original.count)
        #expect(mean < 2.0 && worst < 40, "mean |diff| \(mean), worst \(worst)")
        // And the torso block's edge is where it was: columns 138 and 141 of row 120.
        #expect(yuv[120 * Self.width + 138] > 120 && yuv[120 * Self.width + 141] < 60)   // 140 and 40 encoded
    }
}
