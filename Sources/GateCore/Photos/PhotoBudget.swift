/// How much of the card photos may take. Each picture is admitted before it
/// is written, against its largest possible size, so the cap is never
/// passed and the card always keeps `PhotoSettings.reserveBytes` free for
/// results. The first refusal stops photos for the session: timing and
/// results go on.
public struct PhotoBudget: Equatable {
    public enum Refusal: Equatable {
        /// The photos in the data directory reached `photos.max_mb`.
        case cap
        /// The card's free space is down to the reserve.
        case cardFull(freeBytes: Int64)
    }

    public let capBytes: Int64
    public let reserveBytes: Int64
    /// Photos in the data directory: those found at start and those written since.
    public private(set) var usedBytes: Int64
    /// Why photos stopped; nil while they go on.
    public private(set) var refusal: Refusal?

    public init(capBytes: Int64, reserveBytes: Int64 = PhotoSettings.reserveBytes, usedBytes: Int64) {
        self.capBytes = capBytes
        self.reserveBytes = reserveBytes
        self.usedBytes = usedBytes
    }

    /// The most a `width` x `height` grey PNG can take: the rows with their
    /// filter bytes, what deflate adds to data it cannot compress (5 bytes
    /// per 16 KB block), and the PNG's own chunks.
    public static func largestPNG(width: Int, height: Int) -> Int64 {
        let raw = Int64((width + 1) * height)
        let idatChunks = raw / 16_000 + 2
        return raw + raw / 3000 + 64 + idatChunks * 12 + 64
    }

    /// Whether a picture of at most `bytes` may be written, the card having
    /// `freeBytes` free (nil: unknown). A refusal is kept.
    public mutating func admit(bytes: Int64, freeBytes: Int64?) -> Bool {
        guard refusal == nil else { return false }
        if usedBytes + bytes > capBytes {
            refusal = .cap
        } else if let freeBytes, freeBytes - bytes < reserveBytes {
            refusal = .cardFull(freeBytes: freeBytes)
        }
        return refusal == nil
    }

    /// A picture was written: its real size.
    public mutating func wrote(_ bytes: Int64) {
        usedBytes += bytes
    }

    /// What the box says, once, when photos stop.
    public var message: String? {
        guard let refusal else { return nil }
        let goesOn = "; photos stop for this session, timing and results go on"
        switch refusal {
        case .cap:
            return "photos: the cap of " + String(capBytes >> 20) + " MB (photos.max_mb) is reached, "
                + String(usedBytes >> 20) + " MB of photos in the data directory" + goesOn
        case .cardFull(let free):
            return "photos: the card has " + String(free >> 20) + " MB free, and "
                + String(reserveBytes >> 20) + " MB are kept for results" + goesOn
        }
    }
}
