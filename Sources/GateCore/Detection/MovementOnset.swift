/// The instant a still body starts to move, between frames, from how much
/// each row of a coarse grid changed against the still view (`StartWatch`
/// hands it the rows' squared change each frame).
///
/// A body starting from rest moves as (t - t0)²; while that is under a
/// cell, each changed cell changes by as much, so a row's squared change
/// above its quiet level grows as (t - t0)⁴. Each row is exposed at its
/// own instant (rolling shutter), so a frame shows the start in its lower
/// rows before its upper ones. For each candidate t0 (a quarter of a
/// millisecond apart) the rows' sizes are taken from the latest frame and
/// the earlier frames predicted; the t0 whose prediction fits best is the
/// onset, and the t0s that fit nearly as well give its uncertainty.
///
/// Every buffer is allocated in init; nothing is allocated per frame.
final class MovementOnset {
    static let capacity = 8
    /// Frames above the trigger, each bigger than the last, that make a movement.
    static let risingFrames = 3
    static let quietFrames = 16
    let rows: Int
    /// Each row's exposure after the frame's top row.
    let rowOffsetNanos: UnsafeMutablePointer<Int64>
    let frameNanos: UnsafeMutablePointer<Int64>
    let rowEnergy: UnsafeMutablePointer<Double>
    let total: UnsafeMutablePointer<Double>
    let quietRow: UnsafeMutablePointer<Double>
    var count = 0
    var quietCount = 0
    var quietMean = 0.0
    var quietSquares = 0.0
    var framesAbove = 0
    var top = 0, bottom = 0
    /// Cells summed per frame: the noise's spread follows from it.
    var cells = 1.0

    init(rows: Int, rowOffsetNanos offsets: (Int) -> Int64) {
        self.rows = rows
        rowOffsetNanos = .allocate(capacity: rows)
        for r in 0..<rows { rowOffsetNanos[r] = offsets(r) }
        frameNanos = .allocate(capacity: MovementOnset.capacity)
        frameNanos.initialize(repeating: 0, count: MovementOnset.capacity)
        rowEnergy = .allocate(capacity: MovementOnset.capacity * rows)
        rowEnergy.initialize(repeating: 0, count: MovementOnset.capacity * rows)
        total = .allocate(capacity: MovementOnset.capacity)
        total.initialize(repeating: 0, count: MovementOnset.capacity)
        quietRow = .allocate(capacity: rows)
        quietRow.initialize(repeating: 0, count: rows)
    }

    deinit {
        rowOffsetNanos.deallocate(); frameNanos.deallocate(); rowEnergy.deallocate(); total.deallocate(); quietRow.deallocate()
    }

    /// A new still view: rows `top...bottom`, `cells` cells in all.
    func reset(top: Int, bottom: Int, cells: Int) {
        self.top = top
        self.bottom = bottom
        self.cells = Double(max(1, cells))
        count = 0
        quietCount = 0
        quietMean = 0
        quietSquares = 0
        framesAbove = 0
        for r in 0..<rows { quietRow[r] = 0 }
    }

    /// The row energies of the frame whose top row was exposed at
    /// `topRowNanos` are in `energies(k)` for the slot returned by `slotForNext`.
    func slotForNext() -> UnsafeMutablePointer<Double> {
        rowEnergy + (count % MovementOnset.capacity) * rows
    }

    /// Takes the frame written into `slotForNext()`; returns the onset and
    /// its uncertainty once a movement is certain.
    func add(topRowNanos: Int64, frameIntervalNanos: Int64) -> (nanos: Int64, uncertaintyNanos: Int64)? {
        let slot = count % MovementOnset.capacity
        let energies = rowEnergy + slot * rows
        var sum = 0.0
        for r in top...bottom { sum += energies[r] }
        frameNanos[slot] = topRowNanos
        total[slot] = sum
        count += 1
        // A sum of n squared normal draws varies by sqrt(2 / n) of its mean.
        let measured = quietCount > 1 ? max(0, quietSquares - quietMean * quietMean).squareRoot() : 0
        let sd = max(measured, quietMean * (2 / cells).squareRoot())
        if quietCount < MovementOnset.quietFrames || sum <= quietMean + 6 * sd {
            framesAbove = 0
            if quietCount < MovementOnset.quietFrames || sum <= quietMean + 4 * sd {
                quietCount += 1
                let n = Double(min(quietCount, 64))
                quietMean += (sum - quietMean) / n
                quietSquares += (sum * sum - quietSquares) / n
                for r in top...bottom { quietRow[r] += (energies[r] - quietRow[r]) / n }
            }
            return nil
        }
        framesAbove += 1
        guard framesAbove >= MovementOnset.risingFrames, count >= MovementOnset.risingFrames else { return nil }
        for k in 1..<MovementOnset.risingFrames where total[(count - k) % MovementOnset.capacity] <= total[(count - k - 1) % MovementOnset.capacity] {
            return nil
        }
        return estimate(sd: sd, frameIntervalNanos: frameIntervalNanos)
    }

    private func estimate(sd: Double, frameIntervalNanos: Int64) -> (nanos: Int64, uncertaintyNanos: Int64) {
        let capacity = MovementOnset.capacity
        let frames = min(count, capacity)
        let latest = (count - 1) % capacity
        let origin = frameNanos[latest]
        func seconds(_ k: Int, _ r: Int) -> Double {
            Double(frameNanos[k] - origin + rowOffsetNanos[r]) / 1e9
        }
        let step = 0.000_25
        let earliest = Double(frameNanos[(count - frames) % capacity] - origin) / 1e9 - Double(frameIntervalNanos) / 1e9
        let latestStart = Double(rowOffsetNanos[bottom]) / 1e9
        let steps = Int((latestStart - earliest) / step) + 1
        var bestCost = Double.infinity, bestT0 = latestStart
        // Costs per candidate: a second pass finds those nearly as good.
        func cost(_ t0: Double) -> Double {
            var c = 0.0
            for j in 1..<frames {
                let k = (count - 1 - j) % capacity
                var predicted = 0.0
                for r in top...bottom {
                    let x = rowEnergy[latest * rows + r] - quietRow[r]
                    let tl = seconds(latest, r) - t0
                    guard x > 0, tl > 0 else { continue }
                    let tk = seconds(k, r) - t0
                    if tk > 0 {
                        let ratio = tk / tl
                        predicted += x * ratio * ratio * ratio * ratio
                    }
                }
                let observed = total[k] - quietMean
                let d = observed - predicted
                c += d * d / (sd * sd + 0.04 * predicted * predicted)
            }
            return c
        }
        for i in 0..<steps {
            let t0 = earliest + Double(i) * step
            let c = cost(t0)
            if c < bestCost { bestCost = c; bestT0 = t0 }
        }
        var low = bestT0, high = bestT0
        for i in 0..<steps {
            let t0 = earliest + Double(i) * step
            if cost(t0) <= bestCost + 1 { low = min(low, t0); high = max(high, t0) }
        }
        let nanos = origin + Int64((bestT0 * 1e9).rounded())
        let uncertainty = max(Int64(1_000_000), Int64(((high - low) / 2 + step) * 1e9))
        return (nanos, uncertainty)
    }
}
