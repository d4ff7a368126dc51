/// Every JSON example of seed 002 sections 3.2 and 7.3, as the seed writes
/// them with only the `//` comments taken out.
enum SeedExamples {
    static let sessionCreate = #"""
    {
      "type": "session_create",
      "timestamp": 1706000000000,
      "deviceId": "abc-123",
      "payload": {
        "sessionId": "sess-456",
        "sessionCode": "123456",
        "hostRole": "start",
        "settings": {
          "distance": 40,
          "startType": "flying"
        }
      }
    }
    """#

    static let sessionJoin = #"""
    {
      "type": "session_join",
      "timestamp": 1706000001000,
      "deviceId": "def-789",
      "payload": {
        "sessionId": "sess-456",
        "requestedRole": "finish"
      }
    }
    """#

    static let sessionJoinAccepted = #"""
    {
      "type": "session_join_accepted",
      "timestamp": 1706000002000,
      "deviceId": "abc-123",
      "payload": {
        "sessionId": "sess-456",
        "assignedRole": "finish",
        "devices": [
          { "deviceId": "abc-123", "role": "start", "name": "iPhone 15" },
          { "deviceId": "def-789", "role": "finish", "name": "Pixel 8" }
        ]
      }
    }
    """#

    static let sessionEnd = #"""
    {
      "type": "session_end",
      "timestamp": 1706001000000,
      "deviceId": "abc-123",
      "payload": {
        "sessionId": "sess-456",
        "reason": "user_ended"
      }
    }
    """#

    static let clockSyncPing = #"""
    {
      "type": "clock_sync_ping",
      "timestamp": 1706000010000,
      "deviceId": "abc-123",
      "payload": {
        "sequence": 1,
        "t1": 1706000010000123456
      }
    }
    """#

    static let clockSyncPong = #"""
    {
      "type": "clock_sync_pong",
      "timestamp": 1706000010005,
      "deviceId": "def-789",
      "payload": {
        "sequence": 1,
        "t1": 1706000010000123456,
        "t2": 1706000010002345678,
        "t3": 1706000010003456789
      }
    }
    """#

    static let clockSyncResult = #"""
    {
      "type": "clock_sync_result",
      "timestamp": 1706000020000,
      "deviceId": "abc-123",
      "payload": {
        "offsetNanos": -5000000,
        "rttNanos": 10000000,
        "uncertaintyMs": 2.5,
        "quality": "good",
        "samplesUsed": 5
      }
    }
    """#

    static let gateCalibrating = #"""
    {
      "type": "gate_calibrating",
      "timestamp": 1706000030000,
      "deviceId": "abc-123",
      "payload": {
        "role": "start",
        "progress": 0.5
      }
    }
    """#

    static let gateReady = #"""
    {
      "type": "gate_ready",
      "timestamp": 1706000035000,
      "deviceId": "abc-123",
      "payload": {
        "role": "start",
        "gatePosition": 0.45,
        "capturedFps": 240
      }
    }
    """#

    static let gateNotReady = #"""
    {
      "type": "gate_not_ready",
      "timestamp": 1706000040000,
      "deviceId": "abc-123",
      "payload": {
        "role": "start",
        "reason": "calibration_failed"
      }
    }
    """#

    static let crossingEvent = #"""
    {
      "type": "crossing_event",
      "timestamp": 1706000100000,
      "deviceId": "abc-123",
      "payload": {
        "role": "start",
        "crossingTimeNanos": 1706000100123456789,
        "clockOffsetNanos": -5000000,
        "frameIndex": 1234,
        "occupancyAtTrigger": 0.42,
        "interpolationOffsetMs": 0.73,
        "uncertaintyMs": 1.2
      }
    }
    """#

    static let splitTimeCalculated = #"""
    {
      "type": "split_time_calculated",
      "timestamp": 1706000105000,
      "deviceId": "abc-123",
      "payload": {
        "runId": "run-001",
        "splitTimeMs": 4827.3,
        "startTimeNanos": 1706000095123456789,
        "finishTimeNanos": 1706000100123456789,
        "totalUncertaintyMs": 2.4
      }
    }
    """#

    static let heartbeat = #"""
    {
      "type": "heartbeat",
      "timestamp": 1706000200000,
      "deviceId": "abc-123",
      "payload": {
        "state": "armed",
        "batteryLevel": 0.85,
        "thermalState": "nominal"
      }
    }
    """#

    static let resetForNextRun = #"""
    {
      "type": "reset_for_next_run",
      "timestamp": 1706000300000,
      "deviceId": "abc-123",
      "payload": {
        "keepCalibration": true
      }
    }
    """#

    static let armGates = #"""
    {
      "type": "arm_gates",
      "timestamp": 1706000400000,
      "deviceId": "abc-123",
      "payload": {
        "runNumber": 2
      }
    }
    """#

    static let error = #"""
    {
      "type": "error",
      "timestamp": 1706000500000,
      "deviceId": "abc-123",
      "payload": {
        "code": "CLOCK_SYNC_FAILED",
        "message": "Unable to achieve acceptable clock sync quality",
        "details": {
          "lastUncertaintyMs": 25.4,
          "requiredMs": 10.0
        }
      }
    }
    """#

    /// Every example above, for the tests that hold for all of them.
    static let all: [String] = [
        sessionCreate, sessionJoin, sessionJoinAccepted, sessionEnd, clockSyncPing, clockSyncPong, clockSyncResult,
        gateCalibrating, gateReady, gateNotReady, crossingEvent, splitTimeCalculated, heartbeat, resetForNextRun,
        armGates, error,
    ]
}
