// `make accuracy-sync`: how well two boxes agree on time over BLE, in the
// simulator (GateSim's SimulatedAir), with the box's own ClockSyncExchange.
// Per link profile and connection interval, over many seeded sessions: the
// error of the initiator's offset against the truth, read once a second
// after the first sync, plain (seed 002's exchange, host stamps) and
// precise (radio acknowledgement stamps, FOLLOW_UP); then a 4-hour session
// at +-50 ppm with its largest error.
//
// Last, the split error of whole races: 2-box flying runs of 10-60 m at
// 120 fps played by `ts-gate --simulate --boxes 2` (detection and sync
// together), read back from the host box's results file.
//
//   gate-sync [--seeds N] [--minutes M] [--hours H] [--ts-gate PATH] [--race-seeds N]
//   gate-sync --trace SEED [INTERVAL_MS [uart|usb]]   one session's error per second
import Foundation
import GateCore
import GateSim

var seeds = 12
var minutes = 5.0
var hours = 4.0
var tsGate: String?
var raceSeeds = 6
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    switch a {
    case "--seeds": seeds = Int(args.popFirst() ?? "") ?? seeds
    case "--minutes": minutes = Double(args.popFirst() ?? "") ?? minutes
    case "--hours": hours = Double(args.popFirst() ?? "") ?? hours
    case "--ts-gate": tsGate = args.popFirst()
    case "--race-seeds": raceSeeds = Int(args.popFirst() ?? "") ?? raceSeeds
    case "--trace":
        var o = SyncTrial.Options(); o.seed = UInt64(args.popFirst() ?? "1") ?? 1; o.durationNanos = 300_000_000_000
        let ms = Double(args.popFirst() ?? "7.5") ?? 7.5
        o.profile = args.popFirst() == "usb" ? .usb(intervalNanos: Int64(ms * 1e6)) : .uart(intervalNanos: Int64(ms * 1e6))
        if args.first == "plain" { o.precise = false; args.removeFirst() }
        let r = SyncTrial.run(o)
        for s in r.syncs {
            print("sync", s.result.kind.name, "at", f(Double(s.result.localNanos) / 1e9, 1), "s: error", f(Double(s.result.offsetNanos - s.truthNanos) / 1e6),
                  "ms, bound", f(s.result.boundMs), "ms,", s.result.kept, "of", s.result.received, "of", s.result.sent)
        }
        for (i, e) in r.errorsNanos.enumerated() { print(i, Double(e) / 1e6, r.reportedMs[i]) }
        exit(0)
    default:
        FileHandle.standardError.write("gate-sync: unknown option \(a) (--seeds N, --minutes M, --hours H, --ts-gate PATH, --race-seeds N, --trace SEED [MS [uart|usb]])\n".data(using: .utf8)!)
        exit(2)
    }
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}
func f(_ x: Double, _ places: Int = 3) -> String { String(format: "%.\(places)f", x) }

print("gate-sync: \(seeds) sessions of \(f(minutes, 1)) min per row, error read every second after the first sync (ms)")
print("profile   interval  mode     |err| median    p95    max   reported median  outside  not-ready")
print("(uart: a Pi's on-board controller; usb: a dongle; +loss: 5% of packets lost on the air and sent again;")
print(" outside: reads where the truth lay outside the uncertainty the box reported)")
for (profileName, loss) in [("uart", 0.0), ("usb", 0.0), ("uart+loss", 0.05)] {
    for intervalMs in [7.5, 15.0, 30.0, 50.0] {
        for precise in [false, true] {
            var errors: [Double] = [], reported: [Double] = []
            var outside = 0, notReady = 0
            for seed in 1...seeds {
                var o = SyncTrial.Options()
                o.seed = UInt64(seed)
                let interval = Int64(intervalMs * 1e6)
                o.profile = profileName == "usb" ? .usb(intervalNanos: interval) : .uart(intervalNanos: interval)
                o.profile.lossProbability = loss
                o.precise = precise
                o.durationNanos = Int64(minutes * 60e9)
                let r = SyncTrial.run(o)
                errors += r.errorsNanos.map { Double($0.magnitude) / 1e6 }
                reported += r.reportedMs
                outside += r.outsideReported
                notReady += r.notReady
            }
            errors.sort(); reported.sort()
            let name = profileName.padding(toLength: 9, withPad: " ", startingAt: 0)
            print("\(name) \(f(intervalMs, 1).leftPad(5)) ms  \((precise ? "precise" : "plain").padding(toLength: 8, withPad: " ", startingAt: 0))"
                  + "\(f(percentile(errors, 0.5)).leftPad(13)) \(f(percentile(errors, 0.95)).leftPad(6)) \(f(errors.last ?? .nan).leftPad(6))"
                  + "\(f(percentile(reported, 0.5)).leftPad(18)) \(String(outside).leftPad(8)) \(String(notReady).leftPad(10))   (\(errors.count) reads)")
        }
    }
}

print("")
print("4-hour session, uart, 7.5 ms and 50 ms, drift up to +-50 ppm between the boxes, largest |error| per hour (ms):")
for intervalMs in [7.5, 50.0] {
    for precise in [false, true] {
        var o = SyncTrial.Options()
        o.seed = 101
        o.profile = .uart(intervalNanos: Int64(intervalMs * 1e6))
        o.precise = precise
        o.durationNanos = Int64(hours * 3600e9)
        o.checkEveryNanos = 250_000_000
        let r = SyncTrial.run(o)
        let perHour = Int(3600e9 / Double(o.checkEveryNanos))
        var worst: [Double] = []
        var i = 0
        while i < r.errorsNanos.count {
            worst.append(r.errorsNanos[i..<min(i + perHour, r.errorsNanos.count)].map { Double($0.magnitude) / 1e6 }.max() ?? 0)
            i += perHour
        }
        print("  \(f(intervalMs, 1).leftPad(4)) ms \((precise ? "precise" : "plain").padding(toLength: 8, withPad: " ", startingAt: 0)) "
              + worst.map { f($0) }.joined(separator: "  ") + "   max \(f(Double(r.worstNanos.magnitude) / 1e6)) at \(f(Double(r.worstAtNanos) / 3600e9, 2)) h, \(r.rounds) rounds, outside reported \(r.outsideReported)")
    }
}

if let tsGate { raceSplits(tsGate, seeds: raceSeeds) }

/// Whole 2-box races, each row `raceSeeds` sessions of 4 runs, two at a time.
func raceSplits(_ binary: String, seeds raceSeeds: Int) {
    print("")
    print("whole races: ts-gate --simulate --boxes 2, 4 runs per session (flying unless named), 320x240 at 120 fps, uart 7.5 ms;")
    print("split error against the simulator's truth (detection at both gates and sync together), ms:")
    print("course                         runs  timed  |err| median    p95    max")
    let rows: [(name: String, args: [String])] = [
        ("10 m", ["--distance", "10"]), ("30 m", ["--distance", "30"]), ("60 m", ["--distance", "60"]),
        ("30 m, 5% loss", ["--distance", "30", "--loss", "5"]),
        ("30 m, 5% loss, 10 s link drop", ["--distance", "30", "--loss", "5", "--link-drop", "10"]),
        ("30 m, 50 ms interval", ["--distance", "30", "--interval-ms", "50"]),
        ("30 m, touch-release start", ["--distance", "30", "--start", "touch-release"]),
    ]
    let scratch = NSTemporaryDirectory() + "gate-sync-races-" + String(getpid())
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    for (r, row) in rows.enumerated() {
        var errors: [Double] = [], runs = 0, timed = 0
        var pending: [(Process, String)] = []
        func collect(_ p: Process, _ dir: String) {
            p.waitUntilExit()
            runs += 4
            let text = (try? String(contentsOfFile: dir + "/box-0/session-0001/results.jsonl", encoding: .utf8)) ?? ""
            for record in ResultsReader.parse(text).records {
                if case .raceRun(let line) = record, let e = line.splitErrorMs { errors.append(e.magnitude); timed += 1 }
            }
        }
        for seed in 1...raceSeeds {
            let dir = scratch + "/" + String(r) + "-" + String(seed)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: binary)
            p.arguments = ["--simulate", "--boxes", "2", "--fast", "--runs", "4", "--seed", String(1000 * (r + 1) + seed),
                           "--data-dir", dir] + row.args
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            do { try p.run() } catch { print("gate-sync: cannot run \(binary): \(error)"); exit(1) }
            pending.append((p, dir))
            if pending.count == 2 { let (q, d) = pending.removeFirst(); collect(q, d) }
        }
        for (q, d) in pending { collect(q, d) }
        errors.sort()
        print(row.name.padding(toLength: 30, withPad: " ", startingAt: 0) + String(runs).leftPad(5) + String(timed).leftPad(7)
              + f(percentile(errors, 0.5)).leftPad(13) + f(percentile(errors, 0.95)).leftPad(7) + f(errors.last ?? .nan).leftPad(7))
    }
}

extension String {
    func leftPad(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}
