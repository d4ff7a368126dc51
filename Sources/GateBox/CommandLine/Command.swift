import GateCore
import GateSim

/// What the command line asked for.
public enum Command: Equatable {
    case simulate(SimulateOptions)
    case results(ResultsOptions)
    case replay(ReplayOptions)
    case render(RenderOptions)
    case selftest(SelftestOptions)
    case run(RunOptions)
    case peers(PeersOptions)
    case bleProbe(BLEProbeOptions)
    /// `ts-gate presets`: the table of presets.
    case presets
    case calc(CalcOptions)
    /// `ts-gate athletes ...`: the athletes file and their bests.
    case athletes(AthletesOptions)
    /// `ts-gate session name|note ID TEXT`.
    case session(SessionNoteOptions)
    /// `ts-gate export csv|html`.
    case export(ExportOptions)
    case help
    case version
}

/// `--simulate --boxes N`: a race of 2-4 boxes in one process.
public struct RaceSimulationOptions: Equatable {
    public var boxes = 2
    /// Metres from the start of every gate after it (the finish last).
    public var distances: [Double] = [30]
    public var intervalMs = 7.5
    /// The most the boxes' clocks may differ in rate.
    public var driftPPM = 50.0
    /// Percent of packets lost on the air (sent again at the next event).
    public var lossPercent = 0.0
    /// A silence of this many seconds on every link in the middle of the
    /// second run (past the supervision timeout: the links drop).
    public var linkDropSeconds: Double?
    /// Seed 002's plain exchange instead of the radio's stamps.
    public var plainSync = false
    /// Boxes that speak only the plain exchange and do not announce the
    /// precise one, as a phone following seed 002 would (the tests' mixed race).
    public var plainOnlyBoxes: [Int] = []
    /// A Pi's on-board controller (uart) or a USB dongle (usb).
    public var usbController = false
    /// When the first run reaches the start line: time for the boxes to
    /// arm, join and sync first (a full sync takes 5 s).
    public var firstRunSeconds = 25.0
    public init() {}
}

public struct SimulateOptions: Equatable {
    public var simulation = SimulationOptions()
    /// nil: one box timing laps alone.
    public var race: RaceSimulationOptions?
    public var mode = DetectionMode.photoFinish
    public var dataDirectory: String?
    /// Run on the virtual clock as fast as possible instead of in real time.
    public var fast = false
    /// The voice's clips; nil: build/voice if there, else /usr/share/ts-gate/voice.
    public var voiceDirectory: String?
    /// `--preset ID`: its start type and gates, and its id in the records.
    public var preset: Preset?
    /// `--http ADDRESS:PORT`: serve the coach's page while the session runs.
    public var http: ListenAddress?
    /// `--athletes N`: a squad of N takes turns (made up and added to the
    /// data directory's athletes file when it has none).
    public var athletes: Int?
    /// `--photos on|off`: each crossing's photos beside the results (on by default).
    public var photos = PhotoSettings()
    public init() {}
}

public struct ResultsOptions: Equatable {
    public var dataDirectory: String?
    /// `--units`: the speeds' units in tables.
    public var speedUnits = SpeedUnit.standard
    public var csv = false
    /// One session ("session-0003"); nil: every session.
    public var session: String?
    /// History's filters, search and order.
    public var query = HistoryQuery()
    public init() {}
}

public struct ReplayOptions: Equatable {
    /// The clip to replay: YUV4MPEG2, MJPEG AVI or raw MJPEG stream.
    public var file: String
    /// The clip's frame rate, over the file's own; a raw MJPEG stream needs it.
    public var frameRate: FrameRate?
    public var gatePosition = 0.5
    public var exposureNanos: Int64 = 0
    public var readoutNanos: Int64 = 0
    public var mode = DetectionMode.photoFinish
    /// One JSON object per line instead of a table.
    public var json = false
    /// Where the PNG pictures of each crossing go; nil: no pictures.
    public var imagesDirectory: String?
    public init(file: String) { self.file = file }
}

/// A command line that cannot be run: one line for the user, exit status 2.
public struct UsageError: Error, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

public struct RenderOptions: Equatable {
    /// A clip of the accuracy corpus; nil with --list.
    public var clip: String?
    public var list = false
    /// The corpus seed (the same seed gives the same clips).
    public var seed: UInt64 = 2026
    /// Where the Y4M goes; the truth goes beside it as .truth.json.
    public var output: String?
    /// Bare luma frames one after another, no Y4M header or FRAME lines:
    /// what a V4L2 output device streams (GREY).
    public var raw = false
    public init() {}
}

public struct SelftestOptions: Equatable {
    /// The board file and configuration (defaults in /etc/ts-gate).
    var sources = SettingsSources()
    public init() {}
}

public struct RunOptions: Equatable {
    /// With `--preset ID` among them, over the configuration's.
    var sources = SettingsSources()
    /// Overrides the settings' results.dir.
    public var dataDirectory: String?
    /// Overrides the settings' `http`.
    public var http: ListenAddress?
    public init() {}
}

public struct PeersOptions: Equatable {
    /// List the boxes nearby that advertise the service.
    public var scan = false
    /// "hci1"; nil: the first controller.
    public var controller: String?
    public var seconds = 5.0
    /// Forget the bonded peer at this address.
    public var forget: String?
    public var dataDirectory: String?
    public init() {}
}

/// `ble-probe`: one ATT link end to end, for the VM rig.
public struct BLEProbeOptions: Equatable {
    public var controller: String?
    /// An address, or "any" for the first box found advertising the
    /// service; nil: listen.
    public var connect: String?
    /// How long to listen, or to look for a box.
    public var seconds = 20.0
    public var connectTimeoutMillis = 5000
    /// Listening: stop after the first link closes.
    public var once = false
    public var message = "ping from ts-gate"
    /// Connecting: pair (BT_SECURITY medium) before sending.
    public var secure = false
    /// Connecting: keep the link this long before closing it.
    public var holdMillis = 0
    public init() {}
}

/// `ts-gate calc wind|convert`: the sprint calculators (seed 000 sections 15.5, 24.11, 24.12).
public enum CalcOptions: Equatable {
    /// A time run with `wind` m/s (+ tailwind) as its zero-wind equivalent.
    case wind(event: WindCorrection.Event, seconds: Double, wind: Double)
    /// A time at one of 60, 100, 200 m as its equivalents at the others.
    case convert(from: SprintEquivalents.Event, seconds: Double, sex: SprintEquivalents.Sex)
}
