import CGateShim

/// The camera's automatic controls, locked before streaming: a timing gate
/// wants every frame exposed alike. Auto exposure would change the exposure
/// (and with it the time base's mid-exposure correction) and may stretch
/// frame periods in the dark; auto white balance and auto gain shift the
/// luma the background model learnt; autofocus hunts when a runner fills the
/// view. Each control is locked only where the camera offers it.
///
/// Errno table: EINVAL on VIDIOC_QUERYCTRL (the camera has no such control:
/// not offered), EACCES/EBUSY/EINVAL on VIDIOC_S_CTRL (refused: named in the
/// report, streaming goes on with the camera's own setting).
public struct V4L2Controls {
    /// One lock and how it went.
    public struct Lock: Equatable {
        public enum Outcome: Equatable {
            /// Set; `value` says to what.
            case locked(value: String)
            case notOffered
            case refused(Errno)
        }
        public let name: String
        public let outcome: Outcome

        /// "exposure manual 1.0 ms", "focus not offered", "white balance refused (Device or resource busy)".
        public var text: String {
            switch outcome {
            case .locked(let value): return name + " " + value
            case .notOffered: return name + " not offered"
            case .refused(let errno): return name + " refused (" + errno.description + ")"
            }
        }
    }

    /// Locks what the camera has: exposure to manual at `exposureMs` (and no
    /// frame-rate drop for exposure), white balance, focus and gain to manual.
    public static func lock(_ device: V4L2Device, exposureMs: Double) -> [Lock] {
        var locks: [Lock] = []
        // Exposure: manual mode, then the time in 100 us units where settable.
        switch set(device, UInt32(V4L2_CID_EXPOSURE_AUTO), Int32(V4L2_EXPOSURE_MANUAL.rawValue)) {
        case .locked:
            let units = max(1, Int32((exposureMs * 10).rounded()))
            switch set(device, UInt32(V4L2_CID_EXPOSURE_ABSOLUTE), units) {
            case .locked(let got):
                locks.append(Lock(name: "exposure", outcome: .locked(value: "manual " + String(Double(got) / 10) + " ms")))
            case .notOffered, .refused:
                locks.append(Lock(name: "exposure", outcome: .locked(value: "manual (its own time)")))
            }
            _ = set(device, UInt32(V4L2_CID_EXPOSURE_AUTO_PRIORITY), 0)
        case .notOffered: locks.append(Lock(name: "exposure", outcome: .notOffered))
        case .refused(let errno): locks.append(Lock(name: "exposure", outcome: .refused(errno)))
        }
        locks.append(lockOff(device, UInt32(V4L2_CID_AUTO_WHITE_BALANCE), name: "white balance"))
        locks.append(lockOff(device, UInt32(V4L2_CID_FOCUS_AUTO), name: "focus"))
        locks.append(lockOff(device, UInt32(V4L2_CID_AUTOGAIN), name: "gain"))
        return locks
    }

    /// One line for a person: "exposure not offered, white balance not offered, ..., gain locked".
    public static func summary(_ locks: [Lock]) -> String {
        var text = ""
        for lock in locks { text += (text.isEmpty ? "" : ", ") + lock.text }
        return text
    }

    private enum SetResult { case locked(Int32), notOffered, refused(Errno) }

    /// Turns an automatic control off.
    private static func lockOff(_ device: V4L2Device, _ id: UInt32, name: String) -> Lock {
        switch set(device, id, 0) {
        case .locked: return Lock(name: name, outcome: .locked(value: "locked"))
        case .notOffered: return Lock(name: name, outcome: .notOffered)
        case .refused(let errno): return Lock(name: name, outcome: .refused(errno))
        }
    }

    /// VIDIOC_QUERYCTRL, then VIDIOC_S_CTRL and VIDIOC_G_CTRL: what the control holds now.
    private static func set(_ device: V4L2Device, _ id: UInt32, _ value: Int32) -> SetResult {
                var query = v4l2_queryctrl()
        query.id = id
        guard device.ioctl(gate_VIDIOC_QUERYCTRL(), &query) == 0 else {
            let errno = Errno.current
            return errno == .invalidArgument ? .notOffered : .refused(errno)
        }
        if query.flags & UInt32(V4L2_CTRL_FLAG_DISABLED) != 0 { return .notOffered }
        var control = v4l2_control(id: id, value: min(max(value, query.minimum), query.maximum))
        guard device.ioctl(gate_VIDIOC_S_CTRL(), &control) == 0 else { return .refused(Errno.current) }
        var read = v4l2_control(id: id, value: 0)
        guard device.ioctl(gate_VIDIOC_G_CTRL(), &read) == 0 else { return .locked(control.value) }
        return .locked(read.value)
    }
}
