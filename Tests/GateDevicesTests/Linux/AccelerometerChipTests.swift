import Testing
@testable import GateDevices

@Suite struct AccelerometerChipTests {
    func decode(_ chip: AccelerometerChip, _ bytes: [UInt8]) -> (x: Double, y: Double, z: Double) {
        bytes.withUnsafeBufferPointer { chip.decode($0.baseAddress!) }
    }

    @Test func mpu6050IsBigEndianAt16384PerG() {
        let g = decode(.mpu6050, [0x00, 0x00, 0xC0, 0x00, 0x40, 0x00])
        #expect(g.x == 0 && g.y == -1 && g.z == 1)
    }

    @Test func adxl345IsLittleEndianAt256PerG() {
        let g = decode(.adxl345, [0x80, 0x00, 0x00, 0xFF, 0x00, 0x01])
        #expect(g.x == 0.5 && g.y == -1 && g.z == 1)
    }

    @Test func lis3dhIsLeftJustified12BitAtOneMilliGPerDigit() {
        // +1000 mg = 0x3E8 << 4 = 0x3E80; -500 mg = 0xE0C0.
        let g = decode(.lis3dh, [0x00, 0x00, 0xC0, 0xE0, 0x80, 0x3E])
        #expect(g.x == 0 && g.y == -0.5 && g.z == 1)
    }

    @Test func identityRegistersAndAddressesAreTheDatasheets() {
        #expect(AccelerometerChip.mpu6050.identity == (0x75, 0x68))
        #expect(AccelerometerChip.adxl345.identity == (0x00, 0xE5))
        #expect(AccelerometerChip.lis3dh.identity == (0x0F, 0x33))
        #expect(AccelerometerChip.probeOrder.map { $0.address } == [0x68, 0x69, 0x53, 0x18, 0x19])
        #expect(AccelerometerChip.probeOrder.map { $0.chip.name } == ["MPU-6050", "MPU-6050", "ADXL345", "LIS3DH", "LIS3DH"])
        #expect(AccelerometerChip.lis3dh.dataRegister == 0xA8)
    }
}
