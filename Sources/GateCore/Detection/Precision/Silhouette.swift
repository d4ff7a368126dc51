/// Step 2 of `PrecisionDetector`: the silhouette. Pixels farther from the
/// gained background than their row's noise threshold are 1 in `mask`;
/// those unchanged for `hideStillNanos` are hidden, and for
/// `absorbStillNanos` become background (`SceneModel.absorbPixel`); a
/// quarter of the rows a frame get the background's slow update where
/// the scene is empty (`SceneModel.upkeep`). Gives the body stage `mask`
/// and `silhouetteSpans` (in `WorkPlanes`).
final class Silhouette: ReadsWorkPlanes {
    let planes: WorkPlanes
    let scene: SceneModel
    /// The scene model's still counts (its buffer, held here too).
    let still: UnsafeMutablePointer<UInt8>
    var absorbFrames: Int { scene.absorbFrames }
    var hideFrames: Int { scene.hideFrames }
    var updateShift: Int { scene.updateShift }
    /// Which quarter of the rows gets the background's slow update this frame.
    var upkeepPhase = 0

    init(planes: WorkPlanes, scene: SceneModel) {
        self.planes = planes
        self.scene = scene
        still = scene.still
    }

    /// The silhouette into `mask` (1 where the pixel is farther from its
    /// gained background than the row's threshold plus 3% of the
    /// background), and the model's upkeep: empty pixels follow the scene
    /// slowly; silhouette pixels unchanged for `absorbStillNanos` become
    /// background. Returns the number of silhouette pixels; each row's span
    /// of them, and whether it hid any, go to `silhouetteSpans`.
    ///
    /// This runs on every pixel of every frame, so it is split by cost: the
    /// test itself in 32-bit arithmetic without branches (so it vectorizes);
    /// the still counts over each row's span of silhouette, in vector lanes
    /// (`stillCounts`), and a row with none at once (the test ORs its bits
    /// together in the same lanes; skipping empty rows took a tenth off an
    /// empty 640x480 frame); and the slow update on a quarter of the rows
    /// each frame, in steps four times as large (the same time constant).
    func segment() -> Int {
        let width = self.width
        var count = 0
        let absorb = UInt8(absorbFrames)
        let hide = UInt8(hideFrames)
        upkeepPhase = (upkeepPhase + 1) & 3
        let shift = max(0, updateShift - 2)
        for y in 0..<height {
            // Gains stay below 4 so that luma x gain x 32 fits in 15 bits.
            let g = min(Int(gain[y]), 16383)
            // 16 bits (g x 2 < 2^15), so the product below is a high-half multiply of 16-bit lanes.
            let g2 = UInt16(truncatingIfNeeded: g &* 2)
            let t = Int(threshold[y])
            let t16 = UInt16(truncatingIfNeeded: min(t, 4095))
            let row = y &* width
            let pixels = current + row
            let model16 = background16 + row
            let silhouette = mask + row, unchanged = still + row
            var anyInRow: UInt8 = 0
            for x in 0..<width {
                // The gained background rounded to a luma step, in 16-bit
                // lanes: (luma x 256) x (gain x 8192) >> 16 is luma x gain x 32
                // (a high-half product), then rounded to whole steps.
                let scaled = UInt16(truncatingIfNeeded: (UInt32(model16[x]) &* UInt32(g2)) >> 16)
                let expected = (scaled &+ 16) >> 5
                let limit = t16 &+ (expected >> 5)
                let d = UInt16(pixels[x]) &- expected
                // |d| > limit, as one unsigned comparison (d wraps when negative).
                let bit: UInt8 = d &+ limit > limit &* 2 ? 1 : 0
                silhouette[x] = bit
                anyInRow |= bit
            }
            // Gains of 1/16 or more (as `rowGain` gives them) keep the
            // inverses within 32 bits, which `upkeep` needs. (Clamped here,
            // not in g above: a lower bound on g hides from the compiler that
            // g x 2 is a 16-bit lane, and the high-half multiply is lost.)
            let inverse = (1 << 40) / max(256, g)
            let previousInverse = (1 << 40) / min(max(Int(previousGain[y]), 256), 16383)
            // Unchanged: two frames' difference within what their noise
            // explains, at the silhouette's confidence: t is four sigmas of
            // one frame's noise, a difference of two frames has sqrt(2)
            // times as much (and each frame its own row gain's error), so
            // t x sqrt(2), in luma x 65536 (sqrt(2) x 65536 = 92 682).
            let still16 = t &* 92_682
            if y & 3 == upkeepPhase { scene.upkeep(row, inverse: inverse, shift: shift) }
            guard anyInRow != 0 else {
                // Most rows of most frames: nothing to count or keep still.
                unchanged.update(repeating: 0, count: width)
                silhouetteSpans[y] = ColumnSpan(first: Int32(truncatingIfNeeded: width), last: -1, hidden: false)
                continue
            }
            var hid = false
            let maskWords = UnsafeMutableRawPointer(silhouette)
            // The row's first and last silhouette pixels, eight at a time
            // from each end (the row has one: `anyInRow`).
            var first = 0
            while first &+ 8 <= width && maskWords.loadUnaligned(fromByteOffset: first, as: UInt64.self) == 0 { first &+= 8 }
            while silhouette[first] == 0 { first &+= 1 }
            var last = width &- 1
            while last >= 7 && maskWords.loadUnaligned(fromByteOffset: last &- 7, as: UInt64.self) == 0 { last &-= 8 }
            while silhouette[last] == 0 { last &-= 1 }
            let after = last &+ 1
            unchanged.update(repeating: 0, count: first)
            (unchanged + after).update(repeating: 0, count: width &- after)
            count &+= stillCounts(row, from: first, through: last, inverse: inverse, previousInverse: previousInverse,
                                  stillBound: still16, absorb: absorb, hide: hide, hid: &hid)
            silhouetteSpans[y] = ColumnSpan(first: Int32(truncatingIfNeeded: first), last: Int32(truncatingIfNeeded: last),
                                            hidden: hid)
        }
        return count
    }

    /// The still counts of row offset `row`'s pixels `first...last`, and
    /// what they make of the silhouette: a silhouette pixel whose luma,
    /// brought to the background's light (x 65536), changed by at most
    /// `stillBound` since the last frame counts one more frame unchanged;
    /// after `hide` frames it is hidden from the bodies (`hidden` in the
    /// mask), after `absorb` it becomes background. Empty pixels count none.
    /// Returns the row's silhouette pixels (mask 1 before this).
    ///
    /// Each frame's luma is brought to the background's light: flicker
    /// changes a bright pixel by more than the noise from one frame to the
    /// next, and a scene that never counted as unchanged would never be
    /// hidden nor absorbed. Unchanged for `hide` frames is not a body moving
    /// (the scene where a body stood when the background was learnt, an
    /// object put down): hidden from the bodies until absorbed, unless it
    /// continues a body in its own luma (`reclaimHidden`).
    ///
    /// Eight pixels at a time in vector lanes, from the word holding
    /// `first` (empty pixels there come out as they went in: no count, no
    /// model change): a runner's rows hold hundreds of silhouette pixels,
    /// and as a branch per pixel this was half of `segment`'s cost on a
    /// frame with a large runner. The luma brought to the light is
    /// (luma x inverse) >> 12, computed as `upkeep` computes it: luma x high
    /// + (luma x low) >> 12, exact and in 32 bits.
    @inline(__always)
    func stillCounts(_ row: Int, from first: Int, through last: Int, inverse: Int, previousInverse: Int, stillBound: Int,
                     absorb: UInt8, hide: UInt8, hid: inout Bool) -> Int {
        let step = StillStep(inverse: inverse, previousInverse: previousInverse, stillBound: stillBound,
                             absorb: absorb, hide: hide)
        // The planes' width read once: the loop's stores could otherwise make it read again each turn.
        let width = self.width
        let pixels = UnsafeRawPointer(current + row), before = UnsafeRawPointer(previous + row)
        let silhouette = UnsafeMutableRawPointer(mask + row), unchanged = UnsafeMutableRawPointer(still + row)
        var count = 0
        var hiding: UInt64 = 0
        var x = first & ~7
        while x <= last && x &+ 8 <= width {
            let bits = silhouette.loadUnaligned(fromByteOffset: x, as: SIMD8<UInt8>.self)
            let (counts, absorbed, hidden) = step.counts(
                bits: bits, counts: unchanged.loadUnaligned(fromByteOffset: x, as: SIMD8<UInt8>.self),
                luma: pixels.loadUnaligned(fromByteOffset: x, as: SIMD8<UInt8>.self),
                before: before.loadUnaligned(fromByteOffset: x, as: SIMD8<UInt8>.self))
            unchanged.storeBytes(of: counts, toByteOffset: x, as: SIMD8<UInt8>.self)
            // 1 | 255 is `hidden`.
            silhouette.storeBytes(of: bits | hidden, toByteOffset: x, as: SIMD8<UInt8>.self)
            hiding |= unsafeBitCast(hidden, to: UInt64.self)
            // The bits' sum (at most 8) in the top byte of their product with 0x0101...
            count &+= Int((unsafeBitCast(bits, to: UInt64.self) &* 0x0101_0101_0101_0101) >> 56)
            let absorbedWord = unsafeBitCast(absorbed, to: UInt64.self)
            if absorbedWord != 0 {
                // Rare (a pixel still for `absorb` frames): its model in turn.
                for lane in 0..<8 where absorbed[lane] != 0 { scene.absorbPixel(row &+ x &+ lane, inverse: inverse) }
            }
            x &+= 8
        }
        // The row's last pixels when its width is no multiple of eight.
        while x <= last {
            let i = row &+ x
            let (counts, absorbed, hidden) = step.counts(bits: SIMD8(repeating: mask[i]), counts: SIMD8(repeating: still[i]),
                                                         luma: SIMD8(repeating: current[i]),
                                                         before: SIMD8(repeating: previous[i]))
            count &+= Int(mask[i])
            still[i] = counts[0]
            mask[i] |= hidden[0]
            hiding |= UInt64(hidden[0])
            if absorbed[0] != 0 { scene.absorbPixel(i, inverse: inverse) }
            x &+= 1
        }
        if hiding != 0 { hid = true }
        return count
    }
}

/// `stillCounts`' arithmetic on eight pixels of a row, with that row's
/// constants (`inverse`: 2^40 / gain, the gain x 4096; `stillBound`: the
/// largest change still, luma x 65536).
struct StillStep {
    let high: SIMD8<Int32>, low: SIMD8<Int32>, previousHigh: SIMD8<Int32>, previousLow: SIMD8<Int32>
    let bound: SIMD8<UInt32>, twiceBound: SIMD8<UInt32>
    let absorb: SIMD8<UInt8>, hide: SIMD8<UInt8>

    @inline(__always)
    init(inverse: Int, previousInverse: Int, stillBound: Int, absorb: UInt8, hide: UInt8) {
        high = SIMD8(repeating: Int32(truncatingIfNeeded: inverse >> 12))
        low = SIMD8(repeating: Int32(truncatingIfNeeded: inverse & 4095))
        previousHigh = SIMD8(repeating: Int32(truncatingIfNeeded: previousInverse >> 12))
        previousLow = SIMD8(repeating: Int32(truncatingIfNeeded: previousInverse & 4095))
        // A change is at most 2^28 either way (a luma of 255 at a gain of
        // 1/16): a larger bound compares the same.
        let b = UInt32(truncatingIfNeeded: min(stillBound, 1 << 30))
        bound = SIMD8(repeating: b)
        twiceBound = SIMD8(repeating: b &* 2)
        self.absorb = SIMD8(repeating: absorb)
        self.hide = SIMD8(repeating: hide)
    }

    /// The new still counts of eight pixels (`bits`: their mask, 0 or 1;
    /// `counts`: their still counts; their luma now and `before`), and
    /// which of them are absorbed and which hidden (all ones, or zero).
    @inline(__always)
    func counts(bits: SIMD8<UInt8>, counts: SIMD8<UInt8>, luma: SIMD8<UInt8>, before: SIMD8<UInt8>)
        -> (counts: SIMD8<UInt8>, absorbed: SIMD8<UInt8>, hidden: SIMD8<UInt8>) {
        let now = SIMD8<Int32>(truncatingIfNeeded: luma), then = SIMD8<Int32>(truncatingIfNeeded: before)
        let value = now &* high &+ ((now &* low) &>> 12)
        let change = value &- (then &* previousHigh &+ ((then &* previousLow) &>> 12))
        // |change| <= bound, as one unsigned comparison (change wraps when negative).
        let isStill = SIMD8<UInt32>(truncatingIfNeeded: change) &+ bound .<= twiceBound
        let stillBytes = SIMD8<UInt8>(truncatingIfNeeded: SIMD8<Int32>(repeating: 0).replacing(with: -1, where: isStill))
        // Counted on where the pixel is silhouette (bits 1: 0 - 1 is all ones) and still; 0 elsewhere.
        let n = (counts &+ 1) & stillBytes & (0 &- bits)
        let none = SIMD8<UInt8>(repeating: 0)
        let absorbed = none.replacing(with: 255, where: n .>= absorb)
        let hidden = none.replacing(with: 255, where: n .>= hide) & ~absorbed
        return (n & ~absorbed, absorbed, hidden)
    }
}