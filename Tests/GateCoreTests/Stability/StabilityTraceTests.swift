import Testing
@testable import GateCore

@Suite struct StabilityTraceTests {
    @Test func keepsTheLastSamplesOldestFirstFromTheGivenTime() {
        var trace = StabilityTrace(capacity: 4)
        for i in 0..<6 {
            trace.add(AccelSample(x: Double(i) / 100, y: 0, z: 1, timestampNanos: Int64(i) * 10_000_000))
        }
        #expect(trace.count == 4)
        // Samples 2...5 are kept; from 30 ms on, relative to 50 ms.
        #expect(trace.csv(fromNanos: 30_000_000, originNanos: 50_000_000) ==
            "t_ms,x_g,y_g,z_g\n-20.0,0.0300,0.0000,1.0000\n-10.0,0.0400,0.0000,1.0000\n0.0,0.0500,0.0000,1.0000\n")
        #expect(trace.csv(fromNanos: 0, originNanos: 0).split(separator: "\n").count == 5)
    }

    @Test func anEmptyTraceIsAHeader() {
        #expect(StabilityTrace().csv(fromNanos: 0, originNanos: 0) == "t_ms,x_g,y_g,z_g\n")
    }
}
