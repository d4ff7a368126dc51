import GateCore
import GateDevices

public enum Version {
    public static let text = "0.1.0"
}

/// The `ts-gate` program: parses the command line and runs the command.
/// Returns the process exit status: 0 done, 1 failed, 2 bad command line.
public enum TSGate {
    public static func main(arguments: [String], console: Console = Console.forThisProcess(),
                            missingCPUFeatures: String = CPUFloor.missingHere()) -> Int32 {
        guard missingCPUFeatures.isEmpty else {
            console.problem("ts-gate: " + CPUFloor.problem(missing: missingCPUFeatures))
            return 1
        }
        SignalDescriptor.ignoreBrokenPipes()
        let command: Command
        do {
            command = try ArgumentParser.parse(arguments)
        } catch {
            console.problem("ts-gate: " + error.message)
            return 2
        }
        switch command {
        case .help:
            console.line(usage)
            return 0
        case .version:
            console.line("ts-gate " + Version.text)
            return 0
        case .simulate(let options):
            return SimulateCommand.run(options, console: console)
        case .results(let options):
            return ResultsCommand.run(options, console: console)
        case .run(let options):
            return RunCommand.run(options, console: console)
        case .selftest(let options):
            return SelftestCommand.run(options.sources, console: console)
        case .render(let options):
            return RenderCommand.run(options, console: console)
        case .peers(let options):
            return PeersCommand.run(options, console: console)
        case .bleProbe(let options):
            return BLEProbeCommand.run(options, console: console)
        case .replay(let options):
            return ReplayCommand.run(options, console: console)
        case .presets:
            console.line(PresetsCommand.table())
            return 0
        case .calc(let options):
            return CalcCommand.run(options, console: console)
        case .athletes(let options):
            return AthletesCommand.run(options, console: console)
        case .session(let options):
            return SessionNoteCommand.run(options, console: console)
        case .export(let options):
            return ExportCommand.run(options, console: console)
        }
    }

    public static let usage = """
        ts-gate: firmware of a sprint-timing gate box

        usage:
          ts-gate run [--board F] [--config F] [--data-dir D] [--preset ID] [--http A:P]   the box on its devices (until SIGTERM)
          ts-gate --simulate [options]        play a whole session of one box on simulated devices
          ts-gate results [options]           print saved sessions: filter, search, sort
          ts-gate session name|note ID TEXT   name a session or give it a note ("" clears it)
          ts-gate export csv [options]        every run of the sessions chosen, as CSV
          ts-gate export html ID [options]    one session as a web page, photos inline
          ts-gate replay FILE [options]       time the crossings in a clip: Y4M, MJPEG AVI or raw MJPEG
          ts-gate render CLIP [options]       write a rendered test clip (Y4M) and its truth
          ts-gate selftest [--board F] [--config F]   probe every device the board names
          ts-gate peers --scan [--controller hciN] [--seconds S]   list the boxes nearby (Bluetooth LE)
          ts-gate presets                     the tests a coach picks by name (preset = ID, --preset ID)
          ts-gate calc wind --event 100m|200m --time T --wind W   a time in a wind as its still-air time
          ts-gate calc convert --from 60m|100m|200m --time T [--women]   equivalent 60, 100, 200 m times
          ts-gate athletes add NAME|list|edit NAME|remove NAME|show NAME|new-season [options]   the squad and its bests
          ts-gate --help | --version

        --simulate options:
          --preset ID     a preset's start type and gates (a flying preset is a race of its boxes);
                          one box at the finish times the preset's distance from the start
          --athletes N    1-8 athletes take turns, the coach double-tapping for the next after each run
                          (touch-release, countdown or voice); made up when the athletes file has none
          --seed N        scenario seed (default 1); the same seed gives the same session
          --runs N        laps after a flying start, or runs from a start, 1-1000 (default 4)
          --fps N         camera frames per second, 30-1000 (default 120)
          --speed M       every pass at M m/s, 2-12 (default: each pass 3-11 m/s)
          --gate F        gate line as a fraction of the image width, 0.1-0.9 (default 0.5)
          --start S       flying (default), touch-release, countdown, voice ("On your marks" ... "Set" ... GO)
                          or in-frame (stand still in view; leaving the frame starts the clock)
                          countdown and voice: the athlete is set in view and their reaction is timed
          --false-start   countdown or voice: the athlete goes before GO or within 100 ms of it
          --mode M        detection mode: photo-finish (default), precision or experimental
          --knock S       someone knocks the tripod S seconds in (it shakes; the view shifts)
          --data-dir D    where sessions are written
          --fast          run on the virtual clock as fast as possible (default: real time)
          --photos on|off each crossing's strip and frames as PNG in the session's photos/ (default on)
          --voice D       the voice's WAV clips (default: build/voice from `make voice`, else /usr/share/ts-gate/voice)
          --soak H        H hours of flying laps, a pass every 30-90 s, flickering light, two knocks (use --fast)
          --http A:P      serve the coach's page at address:port while the session runs, such as 127.0.0.1:8080

        a race of boxes (--simulate --boxes N, with --start at the start box; always on the virtual clock):
          --boxes N       2-4 boxes: start, lap gates, finish (default 1: one box timing laps)
          --distance D    the finish at D metres, lap gates evenly between (default 30)
          --distances L   every gate after the start, rising metres: 30,60,100
          --interval-ms I BLE connection interval, 7.5-100 ms (default 7.5)
          --drift-ppm P   the boxes' clocks differ in rate by up to P ppm (default 50)
          --loss P        percent of packets lost on the air (default 0)
          --link-drop S   every link silent for S seconds in the middle of run 2
          --plain-sync    seed 002's plain clock sync instead of the radio's stamps
          --controller C  uart (a Pi's on-board, default) or usb (a dongle)

        results options:
          --data-dir D    where sessions were written
          --session ID    only this session (e.g. session-0001)
          --csv           CSV instead of tables
          --units U       speeds in m/s, km/h, mph or knots, or several: m/s,km/h (default m/s, km/h, mph)
          --from DAY, --to DAY   sessions recorded from/to a day, YYYY-MM-DD (UTC), both included
          --distance D    runs over D metres (30, 30m) or yards (40yd)
          --start S       sessions of a start type: flying, touch-release, countdown, voice, in-frame
          --athlete NAME  runs of an athlete: full name, first name or id, any case
          --preset ID     sessions of a preset (ts-gate presets)
          --boxes N       1: a box alone; 2-4: races of that many boxes
          --search TEXT   sessions whose name, note or athletes' names hold TEXT, any case
          --sort S        newest, oldest, fastest (best run first) or most-runs (default: as recorded)

        export options:
          csv: --data-dir D, --session ID and the results options above that choose sessions and runs;
               one row per crossing, race run and race segment, every field (RFC 4180)
          html: ID, --data-dir D, --units U; the session's name, note, runs, bests and photos in one file
          --output FILE   write FILE (a new file; default: standard output)

        athletes options (the athletes file lives in the data directory, beside the sessions):
          --data-dir D    where the athletes file and the sessions are
          --nickname N    add, edit: what the box says instead of the name
          --colour C      add, edit: red, orange, yellow, green, blue, purple, pink or gray
          --birthdate D   add, edit: YYYY-MM-DD
          --gender G      add, edit: female, male or other
          --name N        edit: a new name; new-season: the season's name
          --no-voice      add, edit: no name clip (espeak-ng speaks it otherwise)
          In edit, an empty value ("") removes a nickname, birthdate or gender. show prints personal
          and season bests per test ({startType}_{distance}m) and the trend of the last runs.

        replay options:
          --gate F          gate line as a fraction of the image width, 0.1-0.9 (default 0.5)
          --exposure-ms E   exposure time of the clip's camera (default 0)
          --readout-ms R    rolling-shutter readout, top row to bottom row (default 0: global shutter)
          --mode M          photo-finish (default), precision or experimental (photo-finish's detector)
          --fps N or N/D    the clip's frame rate, over the file's own (a raw MJPEG stream needs it)
          --json            one JSON object per line per crossing, then a summary line
          --images DIR      write a photo-finish strip and the frame of each crossing as PNG
          The file is a YUV4MPEG2 clip, an MJPEG AVI or a raw MJPEG stream (JPEGs one after another),
          told apart by its first bytes; JPEGs are decoded by libv4lconvert, as the box decodes its camera's.
          Frame i of the clip is stamped i x den / num seconds from its F<num>:<den> header
          (an AVI's dwRate/dwScale, else its dwMicroSecPerFrame; --fps for a raw stream).

        render options:
          --list          the clips of the accuracy corpus, with what each exercises
          --seed N        corpus seed (default 2026)
          --out FILE      the Y4M to write (default CLIP.y4m); the truth goes to FILE minus .y4m plus .truth.json
          --raw           bare GREY frames instead of Y4M (default CLIP.raw), as a V4L2 output device takes them

        The data directory defaults to $TS_GATE_DATA_DIR, else ~/.local/share/ts-gate.
        Each session is a directory holding results.jsonl (format v1, one JSON object per line).
        """
}
