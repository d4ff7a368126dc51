import CGateShim

/// An ALSA playback PCM through the kernel interface (/dev/snd/pcmCcDdp),
/// so the firmware stays static without libasound. Errno table: ENOENT
/// (no such card/device), EBUSY (another program plays to it), EPIPE on
/// write (underrun: count it and re-prepare), EAGAIN (buffer full: back to poll).
public struct PCMDevice {
    public let card: Int
    public let device: Int
    public let descriptor: FileDescriptor

    public static func path(card: Int, device: Int) -> String {
        "/dev/snd/pcmC" + String(card) + "D" + String(device) + "p"
    }

    public var path: String { PCMDevice.path(card: card, device: device) }

    public static func open(card: Int, device: Int) throws(GateError) -> PCMDevice {
        let path = PCMDevice.path(card: card, device: device)
        do {
            return PCMDevice(card: card, device: device, descriptor: try FileDescriptor.open(path, [.readWrite, .nonBlocking]))
        } catch {
            throw GateError(path, error, doing: "opening the speaker")
        }
    }

    public func close() { descriptor.close() }

    /// SNDRV_PCM_IOCTL_INFO: the PCM's id and name ("Loopback PCM").
    public func info() throws(GateError) -> (id: String, name: String) {
        var info = snd_pcm_info()
        guard gate_ioctl_ptr(descriptor.rawValue, gate_SNDRV_PCM_IOCTL_INFO(), &info) == 0 else {
            throw GateError(path, Errno.current, doing: "SNDRV_PCM_IOCTL_INFO")
        }
        return (V4L2Device.text(&info.id), V4L2Device.text(&info.name))
    }
}
