import GateCore

/// The voice's clips from a directory of WAV files, one per `Phrase`
/// (`make voice` writes them; the SD image carries them in
/// /usr/share/ts-gate/voice). Read once before the loop.
public enum VoiceFiles {
    /// The clips found, and a line for the log: how many, and every file
    /// that is missing or malformed (what needs it falls back to tones).
    /// `trouble` names what is missing or refused ("" when nothing is).
    public static func load(directory: String) -> (voice: Voice, line: String, trouble: String) {
        var voice = Voice()
        guard Directory.isDirectory(directory) else {
            let trouble = "no directory " + directory + " (expected the WAV clips `make voice` writes)"
            return (voice, "voice: " + trouble + ": starts are called with beeps and times are not spoken", trouble)
        }
        var missing: [String] = []
        var problems: [String] = []
        for index in 0..<Phrase.count {
            let phrase = Phrase(index: index)
            let path = directory + "/" + phrase.file + ".wav"
            let bytes: [UInt8]
            do { bytes = try FileDescriptor.readBytes(path: path) } catch {
                if error == .noEntry { missing.append(phrase.file + ".wav") } else { problems.append(path + ": " + error.description) }
                continue
            }
            do throws(WAVFile.Problem) {
                let wav = try WAVFile.parse(bytes)
                if !voice.add(phrase, samples: wav.samples, rate: wav.rate) { problems.append(path + ": it is silent") }
            } catch {
                problems.append(path + ": " + error.text)
            }
        }
        var trouble = missing.isEmpty ? "" : "missing: " + missing.joined(separator: ", ")
        if !problems.isEmpty { trouble += (trouble.isEmpty ? "" : "; ") + "refused: " + problems.joined(separator: "; ") }
        var line = "voice: " + String(voice.clipCount) + " of " + String(Phrase.count) + " clips from " + directory
        if !trouble.isEmpty { line += "; " + trouble + " (what needs them is said with tones, or not at all)" }
        return (voice, line, trouble)
    }
}
