/// Order statistics over the detector's scratch values: a median of a
/// row's gains, of calibration frames, of a neck's pixels.
extension PrecisionDetector {
    /// The `rank`-th smallest of `count` values (0: the smallest), left in
    /// place: the smallest v with more than `rank` values at or below it.
    /// It is searched for from `guess` outwards, in steps that double, then
    /// by bisection between the last two. Each step is a count without
    /// branches in 16-bit lanes, so a few dozen values cost far less than
    /// `select`'s partitioning, whose branches the values mispredict; a
    /// guess near the value (a row's gain is near the gain of the row
    /// measured before it) leaves few steps. `values` holds whole vectors:
    /// the lanes past `count` are set to 65535 here, which changes no
    /// count below 65535 (and at 65535 every value is counted anyway).
    static func rankValue(_ values: UnsafeMutablePointer<UInt16>, count: Int, rank: Int, near guess: Int) -> UInt16 {
        let needed = UInt16(truncatingIfNeeded: rank &+ 1)
        let vectors = (count &+ 7) >> 3
        for i in count..<(vectors << 3) { values[i] = 65535 }
        let lanes = UnsafeRawPointer(values)
        @inline(__always) func enough(_ v: Int) -> Bool {
            let bound = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: v))
            var atOrBelow = SIMD8<UInt16>()
            var k = 0
            while k < vectors {
                let lane = lanes.loadUnaligned(fromByteOffset: k &<< 4, as: SIMD8<UInt16>.self)
                // A mask's lanes are all ones (-1) where true.
                atOrBelow &-= unsafeBitCast(lane .<= bound, to: SIMD8<UInt16>.self)
                k &+= 1
            }
            return atOrBelow.wrappedSum() >= needed
        }
        // The value lies in low...high: no value is above 65535.
        var low = 0, high = 65535
        var probe = min(max(guess, 0), 65535), step = 16
        if enough(probe) {
            high = probe
            while probe > low {
                probe = max(low, probe &- step)
                if enough(probe) { high = probe; step &*= 2 } else { low = probe &+ 1; break }
            }
        } else {
            low = probe &+ 1
            while probe < high {
                probe = min(high, probe &+ step)
                if enough(probe) { high = probe; break } else { low = probe &+ 1; step &*= 2 }
            }
        }
        while low < high {
            let middle = low &+ (high &- low) >> 1
            if enough(middle) { high = middle } else { low = middle &+ 1 }
        }
        return UInt16(truncatingIfNeeded: low)
    }

    /// The `rank`-th smallest of `count` values. They are reordered so that
    /// none before `rank` is larger and none after it smaller.
    /// Every row's gain each frame calls it: index arithmetic wraps (the
    /// indices stay inside 0..<count), so no overflow checks slow it.
    static func select(_ values: UnsafeMutablePointer<Int32>, count: Int, rank: Int) -> Int32 {
        var low = 0, high = count &- 1
        while low < high {
            let pivot = values[(low &+ high) >> 1]
            var i = low, j = high
            while i <= j {
                while values[i] < pivot { i &+= 1 }
                while values[j] > pivot { j &-= 1 }
                if i <= j { let v = values[i]; values[i] = values[j]; values[j] = v; i &+= 1; j &-= 1 }
            }
            if rank <= j { high = j } else if rank >= i { low = i } else { return values[rank] }
        }
        return values[rank]
    }
}
