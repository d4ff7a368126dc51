import GateCore

/// The box's accelerometer on I2C: one of the chips AccelerometerChip
/// knows, woken and set to +-2 g at about 100 Hz, read as one burst of the
/// three axes (an SMBus I2C-block read) whenever the sampling timer fires.
///
/// There is no kernel timestamp for an I2C transfer: a sample is stamped
/// with CLOCK_MONOTONIC right after its read completes.
public struct I2CAccelerometer: MotionSensor {
    public let chip: AccelerometerChip
    public let address: Int
    private var bus: I2CBus
    private let raw: UnsafeMutablePointer<UInt8>

    /// Finds the chip (at `address`, or at every known address) and configures it.
    public init(bus number: Int, address: Int?) throws(GateError) {
        var bus = try I2CBus.open(bus: number)
        guard let found = AccelerometerChip.find(on: &bus, address: address) else {
            bus.close()
            throw GateError(bus.path, "no MPU-6050, ADXL345 or LIS3DH answers at "
                + (address.map { I2CBus.hex($0) } ?? "0x68, 0x69, 0x53, 0x18, 0x19"))
        }
        do {
            try bus.select(address: found.address)
            try found.chip.configure(bus)
        } catch {
            bus.close()
            throw error
        }
        self.bus = bus
        chip = found.chip
        self.address = found.address
        raw = .allocate(capacity: 6)
    }

    /// Closes the bus and frees the read buffer (the loop owns the sensor).
    public func close() {
        bus.close()
        raw.deallocate()
    }

    public mutating func sample() throws(GateError) -> AccelSample {
        try bus.readBlock(register: chip.dataRegister, count: 6, into: raw)
        let stamp = MonotonicClock.nowNanos()
        let g = chip.decode(raw)
        return AccelSample(x: g.x, y: g.y, z: g.z, timestampNanos: stamp)
    }
}

extension AccelerometerChip {
    /// Wakes the chip into +-2 g at about 100 Hz.
    ///
    /// Direct writes per case, not a table of array literals per case: the
    /// Embedded Swift 6.3.1 compiler at -Osize lowered `switch self { case
    /// .a: return [...] ... }` to a lookup table in the wrong case order, so
    /// the firmware (not the host build) configured an MPU-6050 with the
    /// LIS3DH's registers. The VM rig's selftest scenario checks the registers.
    public func configure(_ bus: I2CBus) throws(GateError) {
        switch self {
        case .mpu6050:
            try bus.writeByte(register: 0x6B, 0x00)   // PWR_MGMT_1: wake, internal clock
            try bus.writeByte(register: 0x1A, 0x03)   // CONFIG: 44 Hz low-pass
            try bus.writeByte(register: 0x1C, 0x00)   // ACCEL_CONFIG: +-2 g
        case .adxl345:
            try bus.writeByte(register: 0x2C, 0x0A)   // BW_RATE: 100 Hz
            try bus.writeByte(register: 0x31, 0x08)   // DATA_FORMAT: full resolution, +-2 g
            try bus.writeByte(register: 0x2D, 0x08)   // POWER_CTL: measure
        case .lis3dh:
            try bus.writeByte(register: 0x20, 0x57)   // CTRL_REG1: 100 Hz, X/Y/Z on
            try bus.writeByte(register: 0x23, 0x88)   // CTRL_REG4: block update, high resolution, +-2 g
        }
    }

    /// The first of the six data registers (LIS3DH needs the auto-increment bit).
    public var dataRegister: UInt8 {
        switch self {
        case .mpu6050: return 0x3B
        case .adxl345: return 0x32
        case .lis3dh: return 0x28 | 0x80
        }
    }

    /// X, Y, Z in g from the six data bytes.
    public func decode(_ bytes: UnsafePointer<UInt8>) -> (x: Double, y: Double, z: Double) {
        func bigEndian(_ i: Int) -> Int16 { Int16(bitPattern: UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])) }
        func littleEndian(_ i: Int) -> Int16 { Int16(bitPattern: UInt16(bytes[i + 1]) << 8 | UInt16(bytes[i])) }
        switch self {
        case .mpu6050:
            return (Double(bigEndian(0)) / 16384, Double(bigEndian(2)) / 16384, Double(bigEndian(4)) / 16384)
        case .adxl345:
            return (Double(littleEndian(0)) / 256, Double(littleEndian(2)) / 256, Double(littleEndian(4)) / 256)
        case .lis3dh:
            // 12-bit, left-justified: 1 mg per digit after the shift.
            return (Double(littleEndian(0) >> 4) / 1000, Double(littleEndian(2) >> 4) / 1000, Double(littleEndian(4) >> 4) / 1000)
        }
    }
}
