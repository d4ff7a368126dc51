import CGateShim

/// An error a person can act on: what input or device, and what was wrong
/// or expected (house rule 8). Every failure of the box ends up as one.
public struct GateError: Error, Equatable {
    /// The input or device: "/dev/video0", "--fps", "board.conf line 12".
    public var subject: String
    /// What went wrong, or what was expected.
    public var problem: String
    /// The kernel's answer, when a call failed.
    public var errno: Errno?

    public init(_ subject: String, _ problem: String) {
        self.subject = subject
        self.problem = problem
    }

    public init(_ subject: String, _ errno: Errno, doing action: String) {
        self.subject = subject
        self.problem = "\(action) failed: \(errno.description)"
        self.errno = errno
    }

    /// The device itself went away (unplugged, driver unloaded, USB reset):
    /// ENODEV, ENXIO or EIO. The box waits for it rather than stopping.
    public var isDeviceGone: Bool {
        guard let errno else { return false }
        return errno == Errno(ENODEV) || errno == Errno(ENXIO) || errno == Errno(EIO)
    }

    public var message: String { "\(subject): \(problem)" }

    /// Two errors are the same when they say the same thing to a person.
    public static func == (a: GateError, b: GateError) -> Bool {
        a.subject == b.subject && a.problem == b.problem
    }
}
