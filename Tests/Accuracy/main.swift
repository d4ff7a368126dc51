// `make accuracy`: renders the accuracy corpus (GateSim.AccuracyCorpus),
// runs every detection mode over each clip's frames in the Y4M time base,
// and prints per mode and frame rate the median, p95 and max |error| against
// the renderer's truth, misses and false triggers, and how many errors lie
// within the uncertainty each crossing reports. Host-only tool.
//
//   gate-accuracy [--seed N] [--clips-per-rate N] [--filter TEXT] [--verbose]
//                 [--factors | --stress N] [--trace] [--uncertainty] [--mjpeg Q]
//   gate-accuracy --y4m FILE [--gate G] [--exposure-ms E] [--readout-ms R]
//                 [--mode M] [--truth-nanos T --front-speed V]
//   --y4m: the torso front per frame of any Y4M clip (Y4MTrace.swift);
//   --factors: one factor at a time; --stress N: N clips per condition unlike
//   the corpus (StressClips.swift); --trace: photo-finish's front and torso
//   half depth per frame; --uncertainty: with --verbose, each crossing's
//   reported uncertainty beside its error; --mjpeg Q: every frame through
//   JPEG at quality Q (4:2:2, libjpeg) and libv4lconvert first, as a webcam
//   that sends MJPEG delivers it (MJPEGRoundTrip.swift).
import Foundation
import GateCore
import GateSim

struct Options {
    var seed: UInt64 = 2026
    var clipsPerRate = 8
    var filter: String?
    var verbose = false
    /// One factor at a time instead of the corpus.
    var factors = false
    /// Conditions unlike the corpus (StressCorpus), this many clips each.
    var stress = 0
    /// Per frame, photo-finish's last torso front and half depth (for one clip: use --filter).
    var trace = false
    /// With --verbose: each crossing's reported uncertainty beside its error.
    var uncertainty = false
    /// JPEG quality of the MJPEG round trip; nil: frames as rendered.
    var mjpegQuality: Int?
}

var options = Options()
var trace = Y4MTraceOptions()
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--y4m": trace.path = arguments.popFirst() ?? ""
    case "--gate": trace.gate = Double(arguments.popFirst() ?? "") ?? trace.gate
    case "--exposure-ms": trace.exposureMs = Double(arguments.popFirst() ?? "") ?? 0
    case "--readout-ms": trace.readoutMs = Double(arguments.popFirst() ?? "") ?? 0
    case "--mode": trace.mode = DetectionMode(name: arguments.popFirst() ?? "") ?? .photoFinish
    case "--truth-nanos": trace.truthNanos = Int64(arguments.popFirst() ?? "")
    case "--front-speed": trace.frontSpeed = Double(arguments.popFirst() ?? "") ?? 0
    case "--seed": options.seed = UInt64(arguments.popFirst() ?? "") ?? options.seed
    case "--clips-per-rate": options.clipsPerRate = Int(arguments.popFirst() ?? "") ?? options.clipsPerRate
    case "--filter": options.filter = arguments.popFirst()
    case "--verbose": options.verbose = true
    case "--trace": options.trace = true
    case "--uncertainty": options.uncertainty = true
    case "--factors": options.factors = true
    case "--mjpeg":
        guard let q = Int(arguments.popFirst() ?? ""), (1...100).contains(q) else {
            FileHandle.standardError.write("gate-accuracy: --mjpeg expects a JPEG quality from 1 to 100\n".data(using: .utf8)!)
            exit(2)
        }
        options.mjpegQuality = q
    case "--stress": options.stress = Int(arguments.popFirst() ?? "") ?? 8
    default:
        FileHandle.standardError.write("gate-accuracy: unknown option \(argument)\n".data(using: .utf8)!)
        exit(2)
    }
}

/// A crossing matches a truth within this window; outside it, a detection is a false trigger.
let matchWindowNanos: Int64 = 60_000_000

struct Tally {
    var clips = 0
    var errorsMs: [Double] = []
    /// Crossings whose |error| is within one and within two of their reported (one-sigma) uncertainty.
    var withinOneSigma = 0
    var withinTwoSigma = 0
    var misses = 0
    var falseTriggers = 0
    var quietClips = 0
    var quietTriggers = 0
}

if !trace.path.isEmpty { exit(traceY4M(trace)) }

let modes: [DetectionMode] = [.photoFinish, .precision]
var tallies: [String: Tally] = [:]
var factorErrors: [(String, Double)] = []
var clips = options.factors ? AccuracyCorpus.factorClips()
    : options.stress > 0 ? StressCorpus.clips(seed: options.seed, perCondition: options.stress)
    : AccuracyCorpus.clips(seed: options.seed, runnerClipsPerRate: options.clipsPerRate)
if let filter = options.filter { clips = clips.filter { $0.name.contains(filter) } }
let started = Date()
var mjpegBytes = 0, mjpegFrames = 0

for clip in clips {
    let renderer = clip.renderer()
    let w = clip.camera.width, h = clip.camera.height
    let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: w * h)
    defer { pixels.deallocate() }
    var detectors: [(DetectionMode, CrossingDetector)] = []
    for mode in modes {
        var settings = DetectorSettings()
        settings.gatePosition = clip.gatePosition
        settings.readoutNanos = clip.camera.readoutNanos
        settings.exposureNanos = clip.camera.exposureNanos
        detectors.append((mode, CrossingDetector(mode: mode, width: w, height: h, settings: settings)))
    }
    var found: [Int: [DetectedCrossing]] = [:]
    let roundTrip = try options.mjpegQuality.map { try MJPEGRoundTrip(quality: $0, width: w, height: h) }
    defer { mjpegBytes += roundTrip?.totalBytes ?? 0; mjpegFrames += roundTrip?.frames ?? 0 }
    for i in 0..<clip.frameCount {
        let t = clip.timestampNanos(frame: i)
        renderer.render(topRowNanos: t, frameIndex: UInt64(i), into: pixels)
        let seen = try roundTrip?.pass(pixels) ?? UnsafePointer(pixels)
        let frame = LumaFrame(pixels: seen, width: w, height: h, rowStride: w, timestampNanos: t, sequence: UInt32(i))
        for (index, entry) in detectors.enumerated() {
            let c = entry.1.process(frame)
            if let c { found[index, default: []].append(c) }
            if options.trace, case .photoFinish(let d) = entry.1 {
                // The true front of the first runner at that instant, in work columns.
                let truth = clip.scene.runners.first.map {
                    $0.torsoFrontX(atNanos: d.lastFrontNanos) * clip.camera.pixelsPerMetre * Double(d.workWidth) / Double(w)
                } ?? .nan
                print(String(format: "  trace frame %4d  front %8.2f (true %8.2f) at %.4f s  R %5.2f%@", i, d.lastFront,
                             truth, Double(d.lastFrontNanos) / 1e9, d.lastHalfDepth,
                             c.map { String(format: "  CROSSING %.4f s", Double($0.timeNanos) / 1e9) as NSString } ?? ""))
            }
        }
    }
    // The clip's end, as `ts-gate replay` ends a file: crossings still waited for.
    for (index, entry) in detectors.enumerated() {
        entry.1.finish { found[index, default: []].append($0) }
    }
    for (index, entry) in detectors.enumerated() {
        let key = entry.0.name + " " + String(clip.fps)
        var tally = tallies[key] ?? Tally()
        tally.clips += 1
        var unmatched = found[index] ?? []
        var line = "  \(entry.0.name) \(clip.name) (\(clip.kind), \(w)x\(h), exp \(clip.camera.exposureNanos / 1000) us, readout \(clip.camera.readoutNanos / 1000) us):"
        if clip.mustNotTrigger {
            tally.quietClips += 1
            tally.quietTriggers += unmatched.count
            tally.falseTriggers += unmatched.count
            line += unmatched.isEmpty ? " quiet" : " \(unmatched.count) FALSE TRIGGER(S)"
        } else {
            for truth in clip.truthNanos {
                if let k = unmatched.indices.min(by: { abs(unmatched[$0].timeNanos - truth) < abs(unmatched[$1].timeNanos - truth) }),
                   abs(unmatched[k].timeNanos - truth) <= matchWindowNanos {
                    let error = Double(unmatched[k].timeNanos - truth) / 1e6
                    tally.errorsMs.append(error)
                    let sigma = unmatched[k].uncertaintyMs
                    if abs(error) <= sigma { tally.withinOneSigma += 1 }
                    if abs(error) <= 2 * sigma { tally.withinTwoSigma += 1 }
                    factorErrors.append((entry.0.name + " " + clip.kind, error))
                    line += String(format: " %+.3f ms", error)
                    if options.verbose && options.uncertainty { line += String(format: " (u %.3f)", unmatched[k].uncertaintyMs) }
                    unmatched.remove(at: k)
                } else {
                    tally.misses += 1
                    factorErrors.append((entry.0.name + " " + clip.kind + " MISSES", 0))
                    line += " MISS"
                }
            }
            tally.falseTriggers += unmatched.count
            if !unmatched.isEmpty { line += " +\(unmatched.count) false" }
        }
        tallies[key] = tally
        if options.verbose { print(line) }
    }
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let rank = p * Double(sorted.count - 1)
    let low = Int(rank.rounded(.down)), high = Int(rank.rounded(.up))
    return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
}

print("accuracy corpus: \(clips.count) clips, seed \(options.seed), \(String(format: "%.0f", Date().timeIntervalSince(started))) s")
if let q = options.mjpegQuality {
    print(String(format: "frames through MJPEG: JPEG quality %d, 4:2:2 (libjpeg), decoded by libv4lconvert; %.1f KB a frame",
                 q, Double(mjpegBytes) / Double(max(1, mjpegFrames)) / 1024))
}
print("mode          fps  clips  crossings  median ms  p95 ms  max ms  misses  false  quiet clips triggered  |e|<=u  |e|<=2u")
if options.factors || options.stress > 0 {
    // Per factor: signed mean and max |error| (the sign shows a bias).
    var byFactor: [String: [Double]] = [:]
    for line in factorErrors { byFactor[line.0, default: []].append(line.1) }
    for key in byFactor.keys.sorted() {
        let e = byFactor[key]!
        print(String(format: "  %-28@ n %2d  mean %+7.3f  max|e| %7.3f ms", key as NSString, e.count,
                     e.reduce(0, +) / Double(e.count), e.map(abs).max() ?? .nan))
    }
}
for mode in modes {
    for fps in AccuracyCorpus.frameRates {
        guard let t = tallies[mode.name + " " + String(fps)] else {
            print(String(format: "%-12@ %4d  (no clips)", mode.name as NSString, fps))
            continue
        }
        let sorted = t.errorsMs.map(abs).sorted()
        // The share of crossings within one and two reported sigmas (68% and 95% if the uncertainty is honest).
        let share = { (n: Int) in t.errorsMs.isEmpty ? "-" : String(format: "%.0f%%", 100 * Double(n) / Double(t.errorsMs.count)) }
        print(String(format: "%-12@ %4d  %5d  %9d  %9.3f  %6.3f  %6.3f  %6d  %5d  %d of %-10d %6@  %7@",
                     mode.name as NSString, fps, t.clips, t.errorsMs.count, percentile(sorted, 0.5), percentile(sorted, 0.95),
                     sorted.last ?? .nan, t.misses, t.falseTriggers, t.quietTriggers > 0 ? 1 : 0, t.quietClips,
                     share(t.withinOneSigma) as NSString, share(t.withinTwoSigma) as NSString))
    }
}
