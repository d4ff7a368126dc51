import CGateShim

/// A GPIO chip through libgpiod v1.6 (what Debian 12 ships). The chip is
/// opened by name ("gpiochip0"); lines are offsets on it.
public final class GPIOChip {
    public let name: String
    private let chip: OpaquePointer

    public init(name: String) throws(GateError) {
        guard let chip = gpiod_chip_open_by_name(name) else {
            throw GateError("/dev/" + name, Errno.current, doing: "opening the GPIO chip")
        }
        self.name = name
        self.chip = chip
    }

    deinit { gpiod_chip_close(chip) }

    public var label: String { String(cString: gpiod_chip_label(chip)) }
    public var lineCount: Int { Int(gpiod_chip_num_lines(chip)) }

    /// The line at `offset`, for requesting (libgpiod keeps it with the chip).
    func line(_ offset: Int) -> OpaquePointer? {
        guard offset >= 0 && offset < lineCount else { return nil }
        return gpiod_chip_get_line(chip, UInt32(offset))
    }

    /// A line's name (may be empty) and its consumer if another program or driver holds it.
    public func lineInfo(_ offset: Int) throws(GateError) -> (name: String, consumer: String?) {
        guard offset >= 0 && offset < lineCount, let line = gpiod_chip_get_line(chip, UInt32(offset)) else {
            throw GateError("/dev/" + name + " line " + String(offset),
                            "no such line (the chip has lines 0 to " + String(lineCount - 1) + ")")
        }
        let lineName = gpiod_line_name(line).map { String(cString: $0) } ?? ""
        let consumer = gpiod_line_is_used(line) ? (gpiod_line_consumer(line).map { String(cString: $0) } ?? "the kernel") : nil
        return (lineName, consumer)
    }
}
