import CGateShim
import GateCore

/// Athletes' spoken names: one WAV per athlete beside the athletes file,
/// made by espeak-ng when the athlete is added or renamed, in the voice of
/// the start calls (image/voice/make-voice.sh; a test keeps the two in
/// step). The box only plays them; without a clip it beeps instead.
public enum NameClips {
    public static let voice = "en-us"
    public static let speed = "150"
    public static let pitch = "45"
    public static let engine = "espeak-ng"

    public enum Outcome: Equatable {
        case made(path: String)
        /// espeak-ng is not installed here.
        case noEngine
        case failed(String)
    }

    /// Speaks `text` into `path`, written beside it and renamed into place
    /// so that a half-made clip is never played.
    public static func make(_ text: String, path: String) -> Outcome {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        do { try Directory.create(directory) } catch {
            return .failed(directory + ": creating the directory failed: " + error.description)
        }
        let partial = path + ".part"
        let status: Int32
        do {
            status = try ChildProcess.run([engine, "-v", voice, "-s", speed, "-p", pitch, "-w", partial, text])
        } catch {
            if error == .noEntry { return .noEngine }
            return .failed(engine + ": could not be started: " + error.description)
        }
        guard status == 0 else {
            _ = unlink(partial)
            return .failed(engine + " exited with status " + String(status))
        }
        guard rename(partial, path) == 0 else {
            let failure = Errno.current
            _ = unlink(partial)
            return .failed(path + ": renaming the clip into place failed: " + failure.description)
        }
        return .made(path: path)
    }

    /// The clips of the roster's athletes that have one, by athlete id;
    /// `missing` names those without (their names are beeped).
    public static func load(_ roster: AthleteRoster, store: AthletesStore) -> (clips: [(id: String, clip: Voice.Clip)], missing: [String]) {
        var clips: [(id: String, clip: Voice.Clip)] = []
        var missing: [String] = []
        for athlete in roster.athletes {
            guard let bytes = try? FileDescriptor.readBytes(path: store.nameClipPath(id: athlete.id)),
                  let wav = try? WAVFile.parse(bytes) else {
                missing.append(athlete.name)
                continue
            }
            clips.append((athlete.id, Voice.Clip(samples: wav.samples, rate: wav.rate)))
        }
        return (clips, missing)
    }
}
