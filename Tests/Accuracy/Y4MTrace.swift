// `gate-accuracy --y4m FILE`: photo-finish's torso front per frame of any
// Y4M clip (another renderer's, a camera's), for tracing a crossing that a
// clip outside the corpus times wrong. With --truth-nanos T and
// --front-speed V (source pixels per second, signed: + left to right), the
// true front of a runner at constant speed is printed beside the measured one.
import Foundation
import GateCore

/// Reads a file through Foundation (this tool is host-only).
struct HandleSource: ByteSource {
    let handle: FileHandle
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
        let data = handle.readData(ofLength: buffer.count)
        data.copyBytes(to: buffer)
        return data.count
    }
}

struct Y4MTraceOptions {
    var path = ""
    var gate = 0.5
    var exposureMs = 0.0
    var readoutMs = 0.0
    var mode = DetectionMode.photoFinish
    var truthNanos: Int64?
    var frontSpeed = 0.0
}

func traceY4M(_ options: Y4MTraceOptions) -> Int32 {
    guard let handle = FileHandle(forReadingAtPath: options.path) else {
        print("gate-accuracy: cannot open \(options.path)")
        return 1
    }
    do {
        let reader = try Y4MReader(source: HandleSource(handle: handle))
        let w = reader.header.width, h = reader.header.height
        var settings = DetectorSettings()
        settings.gatePosition = options.gate
        settings.exposureNanos = Int64((options.exposureMs * 1e6).rounded())
        settings.readoutNanos = Int64((options.readoutMs * 1e6).rounded())
        let detector = CrossingDetector(mode: options.mode, width: w, height: h, settings: settings)
        // What the detector measured last: front (work columns), its instant, half depth.
        func last() -> (front: Double, nanos: Int64, halfDepth: Double) {
            switch detector {
            case .photoFinish(let d), .experimental(let d): return (d.lastFront, d.lastFrontNanos, d.lastHalfDepth)
            case .precision(let d): return (d.lastFront, d.lastFrontNanos, d.lastHalfDepth)
            }
        }
        let factor = Double(w / WorkImage(sourceWidth: w, sourceHeight: h, workWidth: settings.precisionWorkWidth).width)
        print(String(format: "gate at work column %.2f (factor %.0f)", options.gate * Double(w) / factor, factor))
        var lastNanos: Int64 = -1
        while let frame = try reader.nextFrame() {
            let crossing = detector.process(frame)
            var line = String(format: "frame %4d", reader.frameCount - 1)
            let measured = last()
            if measured.nanos != lastNanos {
                lastNanos = measured.nanos
                line += String(format: "  front %8.2f at %.5f s  R %5.2f", measured.front, Double(lastNanos) / 1e9,
                               measured.halfDepth)
                if let t = options.truthNanos {
                    let truth = (options.gate * Double(w) + options.frontSpeed * Double(lastNanos - t) / 1e9) / factor
                    line += String(format: "  true %8.2f  off %+6.2f", truth, measured.front - truth)
                }
            } else {
                line += "  (no front)"
            }
            if let crossing {
                line += String(format: "  CROSSING %.5f s", Double(crossing.timeNanos) / 1e9)
                if let t = options.truthNanos { line += String(format: " (%+.3f ms)", Double(crossing.timeNanos - t) / 1e6) }
            }
            print(line)
        }
        detector.finish { crossing in
            var line = String(format: "end of clip  CROSSING %.5f s", Double(crossing.timeNanos) / 1e9)
            if let t = options.truthNanos { line += String(format: " (%+.3f ms)", Double(crossing.timeNanos - t) / 1e6) }
            print(line)
        }
    } catch {
        print("gate-accuracy: \(options.path): \(error)")
        return 1
    }
    return 0
}
