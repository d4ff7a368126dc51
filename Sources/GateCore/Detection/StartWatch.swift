/// Watches a start the camera can see: the athlete standing in view before
/// an in-frame start (seed 000 section 5.5), or set before a called GO. It
/// says when someone in view is still, the instant they first move and the
/// instant they leave the frame.
///
/// It works on a coarse grid of the frame (at most 160 x 60 cells, each a
/// short run of pixels on one row) against the empty scene learnt when the
/// gate arms (`learn`). A body is the cells that differ from the empty
/// scene over a third of the rows at least (a ball or a bird is no one).
/// Still means no cell has changed against the frame the stillness began
/// with, so a slow creep counts as movement too.
///
/// First movement: once settled, each row's squared change against the
/// settled view goes to `MovementOnset`, which finds the instant between
/// frames.
///
/// Leaving: the edge of the body that leaves last is followed frame by
/// frame, each at its row's exposure instant (rolling shutter); when the
/// view is empty again, a line through its last positions taken to the
/// frame's edge gives the instant the body left.
///
/// Every buffer is allocated in init; `process` allocates nothing.
public final class StartWatch {
    public struct Instant: Equatable, Sendable {
        public var nanos: Int64
        public var uncertaintyNanos: Int64
        public init(nanos: Int64, uncertaintyNanos: Int64) { self.nanos = nanos; self.uncertaintyNanos = uncertaintyNanos }
    }

    public enum Event: Equatable, Sendable {
        /// Someone in view has been still `settleNanos` (set).
        case settled(atNanos: Int64)
        /// ... and `readyNanos`: an in-frame start may go.
        case ready(atNanos: Int64)
        /// The settled body moved: its first movement.
        case moved(Instant)
        /// The body that moved has left the frame.
        case left(Instant)
    }

    public enum Phase: Equatable, Sendable {
        /// Learning the empty scene.
        case learning
        /// Nobody in view, or someone who has not been still.
        case watching
        /// Someone in view, still.
        case settled
        /// The settled body is moving.
        case moving
    }

    public let columns: Int
    public let rows: Int
    /// Source pixels per cell across, and source rows from one cell row to the next.
    let cellWidth: Int
    let rowStep: Int
    let sourceHeight: Int
    let readoutNanos: Int64
    public var settleNanos: Int64 = 300_000_000
    public var readyNanos: Int64 = 1_000_000_000
    public private(set) var phase = Phase.learning

    /// Cells as luma x 16: this frame, the empty scene, the frame the
    /// stillness began with, the settled view.
    let current: UnsafeMutablePointer<Int32>
    let empty: UnsafeMutablePointer<Int32>
    let anchor: UnsafeMutablePointer<Int32>
    let settledView: UnsafeMutablePointer<Int32>
    /// Per column: cells of the body, and the sum of their rows.
    let columnCells: UnsafeMutablePointer<Int32>
    let columnRowSum: UnsafeMutablePointer<Int32>
    static let learningFrames = 16
    var learnt = 0
    var noiseSum = 0.0
    /// Whether a cell differs (x 16 luma): from the sensor noise learnt.
    var threshold: Int32 = 8 * 16

    // Presence and stillness.
    public private(set) var present = false
    var stillSinceNanos: Int64?
    var readySaid = false

    // The settled view, and its change that tells the first movement.
    var settledFrames = 0
    static let settledViewFrames = 8
    /// The settled body's cells and a margin: columns and rows, inclusive.
    var box = (left: 0, right: 0, top: 0, bottom: 0)
    let movementOnset: MovementOnset
    static let historyCapacity = 8
    /// Moving: the last frames' instants and the trailing edge (cells).
    var historyNanos: [Int64]
    var historyValue: [Double]
    var historyCount = 0
    /// Moving: which way the body leaves (+1 right, -1 left; 0 unknown).
    var leaving = 0
    var firstCentroid = Double.nan
    var frameIntervalNanos: Int64 = 8_333_333
    var lastFrameNanos = Int64.min

    public init(width: Int, height: Int, readoutNanos: Int64) {
        columns = min(160, width)
        rows = min(120, height)
        cellWidth = width / columns
        rowStep = height / rows
        sourceHeight = height
        self.readoutNanos = readoutNanos
        let cells = columns * rows
        current = .allocate(capacity: cells)
        empty = .allocate(capacity: cells)
        anchor = .allocate(capacity: cells)
        settledView = .allocate(capacity: cells)
        for p in [current, empty, anchor, settledView] { p.initialize(repeating: 0, count: cells) }
        columnCells = .allocate(capacity: columns)
        columnRowSum = .allocate(capacity: columns)
        columnCells.initialize(repeating: 0, count: columns)
        columnRowSum.initialize(repeating: 0, count: columns)
        let (step, sourceRows) = (rowStep, height)
        movementOnset = MovementOnset(rows: rows) { r in
            Int64((Double(readoutNanos) * Double(r * step + step / 2) / Double(sourceRows)).rounded())
        }
        historyNanos = [Int64](repeating: 0, count: StartWatch.historyCapacity)
        historyValue = [Double](repeating: 0, count: StartWatch.historyCapacity)
    }

    deinit {
        current.deallocate(); empty.deallocate(); anchor.deallocate(); settledView.deallocate()
        columnCells.deallocate(); columnRowSum.deallocate()
    }

    /// Learns the empty scene from the next frames (the gate arms; the view
    /// must be empty then).
    public func learn() {
        phase = .learning
        learnt = 0
        noiseSum = 0
        present = false
        stillSinceNanos = nil
    }

    /// Feeds one frame.
    public func process(_ frame: LumaFrame) -> Event? {
        if lastFrameNanos != Int64.min, frame.timestampNanos > lastFrameNanos {
            frameIntervalNanos = frame.timestampNanos - lastFrameNanos
        }
        lastFrameNanos = frame.timestampNanos
        sample(frame)
        let cells = columns * rows
        if phase == .learning {
            if learnt > 0 {
                var sum = 0
                for i in 0..<cells { sum += Int(abs(current[i] - anchor[i])) }
                noiseSum += Double(sum) / Double(cells)
                for i in 0..<cells { empty[i] += current[i] }
            } else {
                for i in 0..<cells { empty[i] = current[i] }
            }
            anchor.update(from: current, count: cells)
            learnt += 1
            if learnt == StartWatch.learningFrames {
                for i in 0..<cells { empty[i] /= Int32(StartWatch.learningFrames) }
                // Mean |difference| of two frames is 1.13 sigma; 6 sigma.
                let sigma = noiseSum / Double(learnt - 1) / 1.128
                threshold = Int32(max(8 * 16, 6 * sigma))
                phase = .watching
            }
            return nil
        }
        return watch(frame)
    }

    /// Cells as luma x 16: the mean of `cellWidth` pixels on the cell row's middle source row.
    private func sample(_ frame: LumaFrame) {
        let w = cellWidth
        for r in 0..<rows {
            let y = r * rowStep + rowStep / 2
            let base = frame.pixels + y * frame.rowStride
            let out = current + r * columns
            for c in 0..<columns {
                var sum: Int32 = 0
                var x = c * w * frame.pixelStride
                for _ in 0..<w {
                    sum &+= Int32(base[x])
                    x &+= frame.pixelStride
                }
                out[c] = sum * 16 / Int32(w)
            }
        }
    }

    private func watch(_ frame: LumaFrame) -> Event? {
        let now = frame.timestampNanos
        let cells = columns * rows
        let t = threshold
        // The body against the empty scene, and what changed since the anchor.
        var bodyCells = 0, changed = 0, rowsWithBody = 0
        var firstRow = rows, lastRow = -1
        var columnWeighted = 0.0
        for c in 0..<columns { columnCells[c] = 0; columnRowSum[c] = 0 }
        // Eight cells at a time; the few that hold the body, one by one.
        let lanes = columns & ~7
        let tv = SIMD8<Int32>(repeating: t)
        var changedLanes = SIMD8<Int32>()
        for r in 0..<rows {
            var inRow = 0
            let row = r * columns
            var c = 0
            while c < lanes {
                let cur = UnsafeRawPointer(current + row + c).loadUnaligned(as: SIMD8<Int32>.self)
                let fromEmpty = cur &- UnsafeRawPointer(empty + row + c).loadUnaligned(as: SIMD8<Int32>.self)
                let fromAnchor = cur &- UnsafeRawPointer(anchor + row + c).loadUnaligned(as: SIMD8<Int32>.self)
                changedLanes &-= unsafeBitCast((fromAnchor .> tv) .| (fromAnchor .< 0 &- tv), to: SIMD8<Int32>.self)
                let body = (fromEmpty .> tv) .| (fromEmpty .< 0 &- tv)
                if any(body) {
                    for k in 0..<8 where body[k] {
                        inRow += 1
                        columnCells[c + k] += 1
                        columnRowSum[c + k] += Int32(r)
                        columnWeighted += Double(c + k)
                    }
                }
                c += 8
            }
            while c < columns {
                let i = row + c
                if abs(current[i] - empty[i]) > t {
                    inRow += 1
                    columnCells[c] += 1
                    columnRowSum[c] += Int32(r)
                    columnWeighted += Double(c)
                }
                if abs(current[i] - anchor[i]) > t { changed += 1 }
                c += 1
            }
            bodyCells += inRow
            if inRow > 0 {
                rowsWithBody += 1
                if r < firstRow { firstRow = r }
                lastRow = r
            }
        }
        changed += Int(changedLanes.wrappedSum())
        present = bodyCells >= max(12, cells / 400) && rowsWithBody >= rows / 3
        if changed > max(2, bodyCells / 200) || !present {
            anchor.update(from: current, count: cells)
            stillSinceNanos = present ? now : nil
        } else if stillSinceNanos == nil {
            stillSinceNanos = now
        }
        let stillFor = stillSinceNanos.map { now - $0 } ?? 0
        let centroid = bodyCells > 0 ? columnWeighted / Double(bodyCells) : Double.nan

        switch phase {
        case .learning:
            return nil
        case .watching:
            // While nobody is in view the empty scene follows the light, slowly.
            // (Every eighth frame: a cloud takes seconds, and it costs a pass.)
            if bodyCells == 0 && frame.sequence % 8 == 0 {
                for i in 0..<cells where abs(current[i] - empty[i]) <= t { empty[i] += (current[i] - empty[i]) / 32 }
            }
            guard present, stillFor >= settleNanos else { return nil }
            settle(firstRow: firstRow, lastRow: lastRow)
            return .settled(atNanos: now)
        case .settled:
            guard present else { phase = .watching; return nil }
            if !readySaid && stillFor >= readyNanos {
                readySaid = true
                return .ready(atNanos: now)
            }
            return onset(frame, centroid: centroid)
        case .moving:
            if present && stillFor >= settleNanos {
                settle(firstRow: firstRow, lastRow: lastRow)
                return .settled(atNanos: now)
            }
            // Down to the last cell: a heel planted at the edge lingers.
            if bodyCells > 0 {
                followTrailingEdge(frame, centroid: centroid)
                return nil
            }
            phase = .watching
            return leftInstant().map { .left($0) }
        }
    }

    /// The body is still: the change of the box around it (a margin for the
    /// first movement) is watched from now on.
    private func settle(firstRow: Int, lastRow: Int) {
        var low = columns, high = -1
        for c in 0..<columns where columnCells[c] > 0 {
            if low == columns { low = c }
            high = c
        }
        let margin = columns / 20
        box = (max(0, low - margin), min(columns - 1, high + margin),
               max(0, firstRow - rows / 15), min(rows - 1, lastRow + rows / 15))
        phase = .settled
        readySaid = false
        settledView.update(from: current, count: columns * rows)
        settledFrames = 1
        movementOnset.reset(top: box.top, bottom: box.bottom, cells: (box.bottom - box.top + 1) * (box.right - box.left + 1))
        historyCount = 0
    }

    /// The settled view's change, row by row, to `MovementOnset`: the first
    /// movement once it is certain.
    private func onset(_ frame: LumaFrame, centroid: Double) -> Event? {
        // The settled view: the mean of its first frames, so that its own
        // noise does not count as change.
        if settledFrames < StartWatch.settledViewFrames {
            settledFrames += 1
            let k = Int32(settledFrames)
            for i in 0..<columns * rows { settledView[i] += (current[i] - settledView[i]) / k }
            return nil
        }
        // Squared change, row by row: the noise adds its variance and
        // nothing else, so what stands above the quiet level is the movement's.
        let energies = movementOnset.slotForNext()
        for r in box.top...box.bottom {
            var sum = 0.0
            for i in r * columns + box.left...r * columns + box.right {
                let d = Double(current[i] - settledView[i])
                sum += d * d
            }
            energies[r] = sum
        }
        guard let onset = movementOnset.add(topRowNanos: frame.timestampNanos, frameIntervalNanos: frameIntervalNanos)
        else { return nil }
        let nanos = onset.nanos, uncertainty = onset.uncertaintyNanos
        phase = .moving
        leaving = 0
        firstCentroid = centroid
        historyCount = 0
        return .moved(Instant(nanos: nanos, uncertaintyNanos: uncertainty))
    }

    /// The body's edge that will leave last: its right edge when it goes
    /// left, its left edge when it goes right, at that edge's row's instant.
    private func followTrailingEdge(_ frame: LumaFrame, centroid: Double) {
        var low = -1, high = -1
        for c in 0..<columns where columnCells[c] > 0 {
            if low < 0 { low = c }
            high = c
        }
        guard low >= 0 else { return }
        if !firstCentroid.isNaN && (centroid - firstCentroid).magnitude > 2 {
            leaving = centroid < firstCentroid ? -1 : 1
        }
        if leaving == 0 { leaving = low == 0 ? -1 : high == columns - 1 ? 1 : 0 }
        guard leaving != 0 else { return }
        let column = leaving < 0 ? high : low
        let row = Double(columnRowSum[column]) / Double(columnCells[column])
        let sourceRow = row * Double(rowStep) + Double(rowStep / 2)
        let nanos = frame.timestampNanos + Int64(Double(readoutNanos) * sourceRow / Double(sourceHeight))
        // The edge between cells: past the last body cell, or before the first.
        push(nanos, leaving < 0 ? Double(column + 1) : Double(column))
    }

    /// When the trailing edge reached the frame's edge: a line through its
    /// last positions (at most four), else between the last two frames.
    private func leftInstant() -> Instant? {
        guard historyCount >= 1, leaving != 0 else { return nil }
        let target = leaving < 0 ? 0.0 : Double(columns)
        let first = max(0, historyCount - 4, historyCount - StartWatch.historyCapacity)
        let last = historyNanos[slot(historyCount - 1)]
        let after = lastFrameNanos + readoutNanos / 2
        var sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0, n = 0.0
        for k in first..<historyCount {
            let x = Double(historyNanos[slot(k)] - last) / 1e9
            // The edge lies within the last body cell; a quarter in from its
            // outer side, not half: a sliver under the threshold's share of
            // a cell, or a limb's tip between sampled rows, does not show.
            let y = historyValue[slot(k)] - 0.25 * Double(-leaving)
            sx += x; sy += y; sxx += x * x; sxy += x * y; n += 1
        }
        var nanos = last + (after - last) / 2
        var uncertainty = (after - last) / 2
        let denominator = n * sxx - sx * sx
        if n >= 2 && denominator > 0 {
            let slope = (n * sxy - sx * sy) / denominator
            if slope * Double(leaving) > 0 {
                let y0 = (sy - slope * sx) / n
                // Seconds from the last sighting, bounded before they become
                // nanoseconds (a slope near zero would overflow them).
                let seconds = min(max((target - y0) / slope, 0), Double(after - last) / 1e9)
                nanos = last + Int64((seconds * 1e9).rounded())
                // Half a cell of the edge's position, as time at that speed.
                uncertainty = max(frameIntervalNanos / 2, Int64(min(0.5 / slope.magnitude, 1) * 1e9))
            }
        }
        historyCount = 0
        return Instant(nanos: nanos, uncertaintyNanos: uncertainty)
    }

    private func slot(_ k: Int) -> Int { k % StartWatch.historyCapacity }

    private func push(_ nanos: Int64, _ value: Double) {
        historyNanos[slot(historyCount)] = nanos
        historyValue[slot(historyCount)] = value
        historyCount += 1
        // Keep the count bounded but its slots consistent.
        if historyCount >= 4 * StartWatch.historyCapacity { historyCount -= 2 * StartWatch.historyCapacity }
    }
}
