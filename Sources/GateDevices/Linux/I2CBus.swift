import CGateShim

/// An I2C adapter (/dev/i2c-N) spoken to with SMBus transfers only: byte-data
/// writes and I2C-block reads work on real chips and on i2c-stub alike
/// (i2c-stub refuses plain I2C transfers with EOPNOTSUPP). Errno table:
/// ENOENT (no such bus: i2c-dev not loaded?), ENXIO/EREMOTEIO (nothing
/// answers at the address), EBUSY (a kernel driver owns the address).
public struct I2CBus {
    public let bus: Int
    public let descriptor: FileDescriptor
    public private(set) var address: Int = -1

    public var path: String { "/dev/i2c-" + String(bus) }

    public static func open(bus: Int) throws(GateError) -> I2CBus {
        let path = "/dev/i2c-" + String(bus)
        do {
            return I2CBus(bus: bus, descriptor: try FileDescriptor.open(path, .readWrite))
        } catch {
            throw GateError(path, error, doing: "opening the I2C bus")
        }
    }

    public func close() { descriptor.close() }

    /// Chooses the chip the next transfers go to.
    public mutating func select(address: Int) throws(GateError) {
        guard gate_ioctl_int(descriptor.rawValue, gate_I2C_SLAVE(), Int32(address)) == 0 else {
            throw GateError(path + " address " + I2CBus.hex(address), Errno.current, doing: "selecting the chip")
        }
        self.address = address
    }

    private func transfer(write: Bool, command: UInt8, size: Int32, data: UnsafeMutablePointer<i2c_smbus_data>) -> Int32 {
        var request = i2c_smbus_ioctl_data(read_write: UInt8(write ? I2C_SMBUS_WRITE : I2C_SMBUS_READ),
                                           command: command, size: UInt32(size), data: data)
        return gate_ioctl_ptr(descriptor.rawValue, gate_I2C_SMBUS(), &request)
    }

    public func readByte(register: UInt8) throws(GateError) -> UInt8 {
        var data = i2c_smbus_data()
        guard transfer(write: false, command: register, size: I2C_SMBUS_BYTE_DATA, data: &data) == 0 else {
            throw GateError(path + " address " + I2CBus.hex(address), Errno.current, doing: "reading register " + I2CBus.hex(Int(register)))
        }
        return data.byte
    }

    public func writeByte(register: UInt8, _ value: UInt8) throws(GateError) {
        var data = i2c_smbus_data()
        data.byte = value
        guard transfer(write: true, command: register, size: I2C_SMBUS_BYTE_DATA, data: &data) == 0 else {
            throw GateError(path + " address " + I2CBus.hex(address), Errno.current, doing: "writing register " + I2CBus.hex(Int(register)))
        }
    }

    /// Up to 32 consecutive registers from `register` into `into`.
    public func readBlock(register: UInt8, count: Int, into bytes: UnsafeMutablePointer<UInt8>) throws(GateError) {
        precondition(count > 0 && count <= 32, "SMBus blocks are 1...32 bytes")
        var data = i2c_smbus_data()
        withUnsafeMutableBytes(of: &data) { $0[0] = UInt8(count) }   // block[0] is the length
        guard transfer(write: false, command: register, size: I2C_SMBUS_I2C_BLOCK_DATA, data: &data) == 0 else {
            throw GateError(path + " address " + I2CBus.hex(address), Errno.current, doing: "reading " + String(count) + " bytes from " + I2CBus.hex(Int(register)))
        }
        withUnsafeBytes(of: &data) { raw in
            for i in 0..<count { bytes[i] = raw[1 + i] }
        }
    }

    public static func hex(_ value: Int) -> String {
        let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
        return "0x" + String(digits[(value >> 4) & 0xF]) + String(digits[value & 0xF])
    }
}

/// The accelerometers the box knows, by the identity register each answers.
public enum AccelerometerChip: Equatable, CaseIterable, Sendable {
    case mpu6050, adxl345, lis3dh

    public var name: String {
        switch self {
        case .mpu6050: return "MPU-6050"
        case .adxl345: return "ADXL345"
        case .lis3dh: return "LIS3DH"
        }
    }

    /// Every chip at every address it can have, in the order they are probed:
    /// one flat table (see `configure` for why not an array per case).
    public static let probeOrder: [(chip: AccelerometerChip, address: Int)] = [
        (.mpu6050, 0x68), (.mpu6050, 0x69), (.adxl345, 0x53), (.lis3dh, 0x18), (.lis3dh, 0x19),
    ]

    /// WHO_AM_I / DEVID register and the value the chip answers.
    public var identity: (register: UInt8, value: UInt8) {
        switch self {
        case .mpu6050: return (0x75, 0x68)
        case .adxl345: return (0x00, 0xE5)
        case .lis3dh: return (0x0F, 0x33)
        }
    }

    /// Finds a known chip on `bus`, at `address` or at every known address.
    public static func find(on bus: inout I2CBus, address: Int?) -> (chip: AccelerometerChip, address: Int)? {
        for (chip, candidate) in probeOrder where address == nil || address == candidate {
            guard (try? bus.select(address: candidate)) != nil,
                  let answer = try? bus.readByte(register: chip.identity.register) else { continue }
            if answer == chip.identity.value { return (chip, candidate) }
        }
        return nil
    }
}
