import CGateShim
import GateCore

/// The speaker through ALSA's kernel PCM interface, set up the way tinyalsa
/// does it: hardware parameters narrowed to interleaved S16_LE at 48 or
/// 44.1 kHz, stereo or mono (whatever the card takes), 10 ms periods;
/// monotonic status timestamps. Sounds are rendered once at start
/// (`SoundBank`: the tones and the voice's clips); a beep, a spoken time or
/// a start's calls are a `SoundProgram` streamed from the loop: written
/// without blocking as the ring has room (the platform polls the PCM for
/// POLLOUT while a program plays).
///
/// A start's GO instant is when its first sample leaves the device:
/// from status readings taken while feeding (`PlaybackEpoch`), never from
/// when the write was issued.
///
/// Errno table on write: EAGAIN (the ring is full: back to poll), EPIPE
/// (underrun, normal once a program has drained: re-prepare and write
/// again, counted), EBADFD/ESTRPIPE (suspended: re-prepare), EINTR (retry).
public final class PCMSpeaker: SoundOutput {
    public let pcm: PCMDevice
    public private(set) var rate = 48000
    public private(set) var channels = 2
    public private(set) var underruns = 0
    /// Sounds asked for while another program played (not mixed in).
    public private(set) var skippedSounds = 0
    private let samples: UnsafeMutablePointer<Int16>
    private let capacityFrames: Int
    private let bank: SoundBank
    private var program: SoundProgram?
    /// `program`'s length in frames, with the tail a marked one needs.
    private var programFrames = 0
    /// Frames of `program` handed to the kernel so far.
    private var programWritten = 0
    private var epoch: PlaybackEpoch
    private var markReported = false
    /// A mark that played just before an underrun, from the old timeline.
    private var pendingMark: Int64?
    static let periodFrames = 480
    static let periods = 32
    static var bufferFrames: Int { periodFrames * periods }

    /// asound.h's SNDRV_PCM_STATE_* (a cast in a macro, so not imported).
    enum State: Int32 {
        case open = 0, setup, prepared, running, xrun, draining, paused, suspended, disconnected
    }

    /// One SNDRV_PCM_IOCTL_STATUS reading.
    struct Status {
        var state: State?
        /// When the stream last started.
        var triggerNanos: Int64
        /// When the position (hw_ptr) was last seen to move; 0 before it ever
        /// did, and left over from an earlier run until it moves again.
        var tstampNanos: Int64
        var delayFrames: Int
        var availFrames: Int
    }

    public init(card: Int, device: Int, voice: Voice = Voice()) throws(GateError) {
        pcm = try PCMDevice.open(card: card, device: device)
        var chosen: (rate: Int, channels: Int)?
        search: for rate in [48000, 44100] {
            for channels in [2, 1] where PCMSpeaker.setHardware(pcm, rate: rate, channels: channels) {
                chosen = (rate, channels)
                break search
            }
        }
        guard let chosen else {
            pcm.close()
            throw GateError(pcm.path, "the card takes neither 48 kHz nor 44.1 kHz 16-bit stereo or mono")
        }
        rate = chosen.rate
        channels = chosen.channels
        var sw = snd_pcm_sw_params()
        sw.tstamp_mode = Int32(SNDRV_PCM_TSTAMP_ENABLE)
        sw.period_step = 1
        sw.avail_min = UInt(PCMSpeaker.periodFrames)
        sw.start_threshold = 1
        let bufferFrames = UInt(PCMSpeaker.bufferFrames)
        sw.stop_threshold = bufferFrames
        var boundary = bufferFrames
        while boundary * 2 <= UInt(Int32.max) - bufferFrames { boundary *= 2 }
        sw.boundary = boundary
        sw.proto = gate_SNDRV_PCM_VERSION()
        sw.tstamp_type = UInt32(SNDRV_PCM_TSTAMP_TYPE_MONOTONIC)
        guard gate_ioctl_ptr(pcm.descriptor.rawValue, gate_SNDRV_PCM_IOCTL_SW_PARAMS(), &sw) == 0 else {
            let errno = Errno.current
            pcm.close()
            throw GateError(pcm.path, errno, doing: "SNDRV_PCM_IOCTL_SW_PARAMS")
        }
        guard gate_ioctl_int(pcm.descriptor.rawValue, gate_SNDRV_PCM_IOCTL_PREPARE(), 0) == 0 else {
            let errno = Errno.current
            pcm.close()
            throw GateError(pcm.path, errno, doing: "SNDRV_PCM_IOCTL_PREPARE")
        }
        capacityFrames = PCMSpeaker.bufferFrames
        samples = .allocate(capacity: capacityFrames * channels)
        bank = SoundBank(rate: rate, voice: voice)
        epoch = PlaybackEpoch(rate: rate)
    }

    deinit {
        _ = gate_ioctl_int(pcm.descriptor.rawValue, gate_SNDRV_PCM_IOCTL_DROP(), 0)
        samples.deallocate()
        pcm.close()
    }
    /// Narrows every parameter to one value and asks the driver to take them.
    static func setHardware(_ pcm: PCMDevice, rate: Int, channels: Int) -> Bool {
        var p = snd_pcm_hw_params()
        for param in Int32(SNDRV_PCM_HW_PARAM_FIRST_MASK)...Int32(SNDRV_PCM_HW_PARAM_LAST_MASK) {
            let mask = gate_hw_params_mask(&p, param)!
            _ = withUnsafeMutableBytes(of: &mask.pointee.bits) { $0.initializeMemory(as: UInt8.self, repeating: 0xFF) }
        }
        for param in Int32(SNDRV_PCM_HW_PARAM_FIRST_INTERVAL)...Int32(SNDRV_PCM_HW_PARAM_LAST_INTERVAL) {
            let interval = gate_hw_params_interval(&p, param)!
            interval.pointee.min = 0
            interval.pointee.max = UInt32.max
        }
        p.rmask = UInt32.max
        p.info = UInt32.max
        func only(_ param: Int32, _ value: UInt32) {
            let mask = gate_hw_params_mask(&p, param)!
            withUnsafeMutableBytes(of: &mask.pointee.bits) { raw in
                raw.initializeMemory(as: UInt8.self, repeating: 0)
                raw.storeBytes(of: UInt32(1) << (value & 31), toByteOffset: Int(value >> 5) * 4, as: UInt32.self)
            }
        }
        func exactly(_ param: Int32, _ value: Int) {
            let interval = gate_hw_params_interval(&p, param)!
            interval.pointee.min = UInt32(value)
            interval.pointee.max = UInt32(value)
            interval.pointee.integer = 1
        }
        only(Int32(SNDRV_PCM_HW_PARAM_ACCESS), UInt32(SNDRV_PCM_ACCESS_RW_INTERLEAVED))
        only(Int32(SNDRV_PCM_HW_PARAM_FORMAT), UInt32(SNDRV_PCM_FORMAT_S16_LE))
        only(Int32(SNDRV_PCM_HW_PARAM_SUBFORMAT), UInt32(SNDRV_PCM_SUBFORMAT_STD))
        exactly(Int32(SNDRV_PCM_HW_PARAM_SAMPLE_BITS), 16)
        exactly(Int32(SNDRV_PCM_HW_PARAM_FRAME_BITS), 16 * channels)
        exactly(Int32(SNDRV_PCM_HW_PARAM_CHANNELS), channels)
        exactly(Int32(SNDRV_PCM_HW_PARAM_RATE), rate)
        exactly(Int32(SNDRV_PCM_HW_PARAM_PERIOD_SIZE), periodFrames)
        exactly(Int32(SNDRV_PCM_HW_PARAM_PERIODS), periods)
        return gate_ioctl_ptr(pcm.descriptor.rawValue, gate_SNDRV_PCM_IOCTL_HW_PARAMS(), &p) == 0
    }

    public var isStreaming: Bool { program != nil }
    public var clockSource: String { "pcm-status" }

    public func play(_ next: SoundProgram, atNanos: Int64) throws(GateError) {
        if let program, program.markNanos != nil, !markReported, next.markNanos == nil {
            skippedSounds += 1
            return
        }
        // What still plays gives way at once: the newest sound is the one
        // that matters (a crossing's beep, a start's first call).
        if program != nil { try drop() }
        program = next
        // A marked program runs on past its GO by the ring's length, so the
        // GO has left the device before the stream runs dry.
        programFrames = SoundProgram.frame(atNanos: next.endNanos, rate: rate)
            + (next.markNanos == nil ? 0 : PCMSpeaker.bufferFrames + rate / 10)
        programWritten = 0
        epoch = PlaybackEpoch(rate: rate)
        markReported = false
        pendingMark = nil
        _ = try service(atNanos: atNanos)
    }

    public func stop(atNanos: Int64) throws(GateError) {
        guard program != nil else { return }
        try drop()
        program = nil
    }

    /// Discards what the ring holds and makes the stream ready for a new run.
    private func drop() throws(GateError) {
        _ = gate_ioctl_int(pcm.descriptor.rawValue, gate_SNDRV_PCM_IOCTL_DROP(), 0)
        guard gate_ioctl_int(pcm.descriptor.rawValue, gate_SNDRV_PCM_IOCTL_PREPARE(), 0) == 0 else {
            throw GateError(pcm.path, Errno.current, doing: "SNDRV_PCM_IOCTL_PREPARE after dropping a sound")
        }
    }

    /// Feeds the program as far as the ring has room, reading the status
    /// before each write; returns the program's mark instant (the GO) once
    /// that frame has been played.
    public func service(atNanos: Int64) throws(GateError) -> Int64? {
        guard let program else { return nil }
        let markFrame = program.markNanos.map { SoundProgram.frame(atNanos: $0, rate: rate) }
        var mark: Int64?
        while true {
            let status = try readStatus()
            // A reading counts once the position has moved in this run: the
            // kernel stamps tstamp when it sees hw_ptr change.
            if status.state == .running && status.tstampNanos > status.triggerNanos {
                epoch.add(statusNanos: status.tstampNanos, delayFrames: status.delayFrames, writtenFrames: programWritten)
            }
            if let frame = markFrame, !markReported, status.state == .running,
               programWritten - status.delayFrames > frame, let instant = epoch.instant(ofFrame: frame) {
                markReported = true
                mark = instant
            }
            let room = status.state == .running ? status.availFrames : capacityFrames
            let count = min(room, programFrames - programWritten, capacityFrames)
            if count == 0 { break }
            program.render(from: programWritten, count: count, channels: channels, bank: bank, into: samples)
            let written = try write(frames: count, markFrame: markFrame)
            programWritten += written
            if written < count { break }
        }
        if let early = pendingMark {
            pendingMark = nil
            mark = early
        }
        if programWritten == programFrames && (markFrame == nil || markReported) {
            // All queued; the stream drains and stops by itself (an underrun
            // the next program re-prepares).
            self.program = nil
        }
        return mark
    }

    func readStatus() throws(GateError) -> Status {
        var status = snd_pcm_status()
        guard gate_ioctl_ptr(pcm.descriptor.rawValue, gate_SNDRV_PCM_IOCTL_STATUS(), &status) == 0 else {
            throw GateError(pcm.path, Errno.current, doing: "SNDRV_PCM_IOCTL_STATUS")
        }
        return Status(state: State(rawValue: status.state),
                      triggerNanos: Int64(status.trigger_tstamp.tv_sec) * 1_000_000_000 + Int64(status.trigger_tstamp.tv_nsec),
                      tstampNanos: Int64(status.tstamp.tv_sec) * 1_000_000_000 + Int64(status.tstamp.tv_nsec),
                      delayFrames: Int(status.delay), availFrames: Int(status.avail))
    }

    /// Writes `frames` frames from the sample buffer without blocking;
    /// returns how many the kernel took.
    func write(frames: Int, markFrame: Int?) throws(GateError) -> Int {
        var offset = 0
        var retried = false
        while offset < frames {
            var transfer = snd_xferi(result: 0, buf: UnsafeMutableRawPointer(samples + offset * channels),
                                     frames: UInt(frames - offset))
            if gate_ioctl_ptr(pcm.descriptor.rawValue, gate_SNDRV_PCM_IOCTL_WRITEI_FRAMES(), &transfer) == 0 {
                offset += Int(transfer.result)
                continue
            }
            let errno = Errno.current
            if errno == .interrupted { continue }
            if errno == .wouldBlock { return offset }
            if (errno == .brokenPipe || errno == Errno(EBADFD) || errno == Errno(ESTRPIPE)) && !retried {
                if errno == .brokenPipe && programWritten + offset > 0 { underruns += 1 }
                retried = true
                // Everything queued before the underrun has played: a mark
                // written by then is in the old timeline's readings; after it
                // a new continuous run (and a new epoch) begins.
                if let frame = markFrame, frame < programWritten + offset, !markReported {
                    markReported = true
                    pendingMark = epoch.instant(ofFrame: frame)
                }
                epoch = PlaybackEpoch(rate: rate)
                guard gate_ioctl_int(pcm.descriptor.rawValue, gate_SNDRV_PCM_IOCTL_PREPARE(), 0) == 0 else {
                    throw GateError(pcm.path, Errno.current, doing: "re-preparing after an underrun")
                }
                continue
            }
            throw GateError(pcm.path, errno, doing: "writing a sound")
        }
        return offset
    }
}
