import CGateShim
import GateCore

/// The speaker through ALSA's kernel PCM interface, set up the way tinyalsa
/// does it: hardware parameters narrowed to interleaved S16_LE at 48 or
/// 44.1 kHz, stereo or mono (whatever the card takes), 10 ms periods;
/// monotonic status timestamps. A sound is synthesised into a buffer made
/// at start and written without blocking.
///
/// Errno table on write: EAGAIN (the ring is full: the rest of the sound is
/// dropped, counted), EPIPE (underrun, normal after silence: re-prepare and
/// write again, counted), EBADFD/ESTRPIPE (suspended: re-prepare).
public final class PCMSpeaker: SoundOutput {
    public let pcm: PCMDevice
    public private(set) var rate = 48000
    public private(set) var channels = 2
    public private(set) var underruns = 0
    public private(set) var droppedFrames = 0
    private let samples: UnsafeMutablePointer<Int16>
    private let capacityFrames: Int
    static let periodFrames = 480
    static let periods = 32

    public init(card: Int, device: Int) throws(GateError) {
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
        let bufferFrames = UInt(PCMSpeaker.periodFrames * PCMSpeaker.periods)
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
        capacityFrames = rate / 2
        samples = .allocate(capacity: capacityFrames * channels)
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

    public func play(_ sound: Sound, atNanos: Int64) throws(GateError) {
        let kind: SoundSynth.Kind
        switch sound {
        case .beep: kind = .beep
        case .gunshot: kind = .gunshot
        case .whistle: kind = .whistle
        }
        let frames = SoundSynth.render(kind, rate: rate, channels: channels, into: samples, capacity: capacityFrames)
        try write(frames: frames)
    }

    /// Queues `frames` frames from the sample buffer without blocking.
    func write(frames: Int) throws(GateError) {
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
            if errno == .wouldBlock { droppedFrames += frames - offset; return }
            if (errno == .brokenPipe || errno == Errno(EBADFD) || errno == Errno(ESTRPIPE)) && !retried {
                if errno == .brokenPipe { underruns += 1 }
                retried = true
                guard gate_ioctl_int(pcm.descriptor.rawValue, gate_SNDRV_PCM_IOCTL_PREPARE(), 0) == 0 else {
                    throw GateError(pcm.path, Errno.current, doing: "re-preparing after an underrun")
                }
                continue
            }
            throw GateError(pcm.path, errno, doing: "writing a sound")
        }
    }
}
