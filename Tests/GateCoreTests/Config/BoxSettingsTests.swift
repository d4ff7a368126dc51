import Foundation
import Testing
@testable import GateCore

@Suite struct KeyValueFileTests {
    @Test func readsKeysValuesCommentsAndBlankLines() throws {
        let entries = try KeyValueFile.parse("# board\n\ncamera.fps = 240   # fast\n  imu.bus=1\n", file: "b.conf")
        #expect(entries == [KeyValueEntry(key: "camera.fps", value: "240", line: 3), KeyValueEntry(key: "imu.bus", value: "1", line: 4)])
    }

    @Test(arguments: [
        ("camera.fps 240", 1, "expected 'key = value', found 'camera.fps 240'"),
        ("= 3", 1, "a value without a key"),
        ("a = 1\nb =\n", 2, "key 'b' has no value"),
        ("a = 1\na = 2", 2, "key 'a' was already set on line 1"),
        ("camera fps = 2", 1, "key 'camera fps' has a character that is not a letter, digit, '.' or '_'"),
    ])
    func namesTheLineAndTheProblem(text: String, line: Int, problem: String) {
        #expect(throws: ConfigError(file: "x.conf", line: line, problem: problem)) { try KeyValueFile.parse(text, file: "x.conf") }
    }
}

@Suite struct BoxSettingsTests {
    func apply(_ text: String) throws(ConfigError) -> BoxSettings {
        var s = BoxSettings()
        try s.apply(try KeyValueFile.parse(text, file: "t.conf"), file: "t.conf")
        return s
    }

    @Test func everyShippedBoardFileIsValid() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("board")
        for board in ["rpi4", "rpi5", "generic-x86", "vm-rig"] {
            let text = try String(contentsOf: root.appendingPathComponent(board + "/board.conf"), encoding: .utf8)
            let s = try apply(text)
            #expect(s.board == board)
        }
        // The example only has comments: it changes nothing.
        let example = try String(contentsOf: root.appendingPathComponent("ts-gate.conf.example"), encoding: .utf8)
        #expect(try apply(example) == BoxSettings())
    }

    @Test func appliesTypedValues() throws {
        let s = try apply("camera.fps = 240\ncamera.format = YUYV\nimu.address = 0x69\naudio.device = hw:1,3\nrequired = camera, imu\ndetection.mode = precision\ngate.position = 0.45")
        #expect(s.cameraFps == 240 && s.cameraFormat == .yuyv && s.imuAddress == 0x69)
        #expect(s.audioCard == 1 && s.audioDevice == 3 && s.required == ["camera", "imu"])
        #expect(s.detection == .precision && s.gatePosition == 0.45)
        let off = try apply("realtime = off")
        #expect(s.realTime && !off.realTime)
    }

    @Test(arguments: [
        ("camera.fps = 2000", "camera.fps = 2000: expected an integer from 30 to 1000"),
        ("camera.format = RGB", "camera.format = RGB: expected GREY, YUYV or MJPEG"),
        ("imu.address = 0x42", "imu.address = 0x42: expected auto, or an address such as 0x68 (MPU-6050 0x68/0x69, ADXL345 0x53, LIS3DH 0x18/0x19)"),
        ("audio.device = default", "audio.device = default: expected hw:CARD,DEVICE with numbers, such as hw:0,0"),
        ("required = camera, laser", "required = camera, laser: expected a comma-separated list of camera, imu, buttons, lights, speaker, bluetooth (or none)"),
    ])
    func refusesABadValueSayingWhatTheKeyAccepts(line: String, problem: String) {
        #expect(throws: ConfigError(file: "t.conf", line: 1, problem: problem)) { try apply(line) }
    }

    @Test func aTouchReleaseStartNeedsATouchPadWhereverEachIsSet() throws {
        var s = try apply("gpio.touch = 5\nstart.type = touch-release")
        #expect(s.touchLine == 5 && s.startType == .touchRelease)
        try s.validate()
        s = try apply("# board\nstart.type = touch-release")
        #expect(throws: ConfigError(file: "t.conf", line: 2, problem: "start.type = touch-release needs gpio.touch, the touch pad's line (set in the board or configuration file)")) {
            try s.validate()
        }
        try apply("start.type = countdown\ngpio.touch = none").validate()
        #expect(throws: ConfigError(file: "t.conf", line: 1, problem: "start.type = sprint: expected flying, touch-release, countdown, voice or in-frame")) {
            try apply("start.type = sprint")
        }
    }

    @Test func refusesAnUnknownKeyListingTheKnownOnes() {
        do {
            _ = try apply("\ncamera.framerate = 120")
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 2)
            #expect(error.problem.hasPrefix("unknown key 'camera.framerate' (known keys: board, camera.device, camera.width"))
        }
    }

    @Test func readsARaceOfBoxes() throws {
        let host = try apply("race = host\nrace.gates = 0, 10, 30.5\nrace.role = finish\nrace.session = 004213\n")
        #expect(host.race == .host)
        #expect(host.raceGatesMetres == [0, 10, 30.5])
        #expect(host.raceRole == "finish")
        #expect(host.raceSession == "004213")
        try host.validate()
        let alone = try apply("race.session = auto\n")
        #expect(alone.race == .solo && alone.raceSession == nil && alone.raceGatesMetres == [0, 30])
    }

    @Test(arguments: ["race = both", "race.gates = 5, 30", "race.gates = 0", "race.gates = 0, 30, 20", "race.gates = 0, 10, 20, 30, 40",
                      "race.role = judge", "race.session = 12345", "race.session = 12a456"])
    func refusesABadRaceKey(line: String) {
        #expect(throws: ConfigError.self) { try apply(line + "\n") }
    }

    /// The SD image's access point (issue 49): checked here, used by its boot script.
    @Test func readsTheAccessPointAndRefusesHalfOfIt() throws {
        var s = try apply("wifi.ssid = Track 3 gate\nwifi.passphrase = sprint-gate-42\nwifi.country = GB\nwifi.channel = 11")
        #expect(s.wifiSSID == "Track 3 gate" && s.wifiPassphrase == "sprint-gate-42" && s.wifiCountry == "GB" && s.wifiChannel == 11)
        try s.validate()
        s = try apply("board = x\nwifi.ssid = Track 3 gate")
        #expect(throws: ConfigError(file: "t.conf", line: 2, problem: "wifi.ssid needs wifi.passphrase (8 to 63 characters): the box's access point is never open")) {
            try s.validate()
        }
        for bad in ["wifi.passphrase = short", "wifi.country = gb", "wifi.channel = 14", "wifi.ssid = " + String(repeating: "x", count: 33)] {
            #expect(throws: ConfigError.self) { try apply(bad) }
        }
    }

    /// The coach's page (issue 52): off unless configured; the address checked whole.
    @Test func readsWhereTheCoachsPageListens() throws {
        #expect(try apply("board = x").httpListen == nil)
        #expect(try apply("http = 0.0.0.0:80").httpListen == ListenAddress(octets: (0, 0, 0, 0), port: 80))
        #expect(try apply("http = :8080").httpListen == ListenAddress(octets: (0, 0, 0, 0), port: 8080))
        #expect(try apply("http = 192.168.4.1:8080").httpListen?.text == "192.168.4.1:8080")
        #expect(try apply("http = off").httpListen == nil)
        for bad in ["http = on", "http = 80", "http = 1.2.3:80", "http = 1.2.3.256:80", "http = 1.2.3.4:0", "http = 1.2.3.4:65536",
                    "http = 1.2.3.4:+80", "http = 1.2.3.4: 80", "http = host:80"] {
            #expect(throws: ConfigError.self, "\(bad)") { try apply(bad) }
        }
    }

    /// The voice start's ranges, the GO sound and the announcements (issue 50).
    @Test func readsHowStartsAreCalledAndTimesSpoken() throws {
        let s = try apply("start.type = voice\nstart.go = word\nstart.marks_to_set_s = 5 - 7.5\nstart.set_to_go_s = 2\n"
                          + "start.prestart_s = 10-20\nannounce = off\nannounce.units = on\nvoice.dir = /opt/voice")
        #expect(s.startType == .voice && s.voice.go == .word)
        #expect(s.voice.marksToSetSeconds == 5...7.5 && s.voice.setToGoSeconds == 2...2 && s.voice.preStartSeconds == 10...20)
        #expect(!s.voice.announce && s.voice.announceUnits && s.voiceDirectory == "/opt/voice")
        let defaults = try apply("start.type = countdown")
        #expect(defaults.voice == VoiceSettings() && defaults.voice.marksToSetSeconds == 8...12 && defaults.voice.setToGoSeconds == 1.5...2.3)
        #expect(defaults.voice.announce && defaults.voice.go == .gunshot)
    }

    @Test(arguments: [
        ("start.set_to_go_s = 0.2-2", "start.set_to_go_s = 0.2-2: expected seconds from \"Set\" to GO, a range from 0.5 to 5.0 such as 1.5-2.3"),
        ("start.marks_to_set_s = 12-8", "start.marks_to_set_s = 12-8: expected seconds from \"On your marks\" to \"Set\", a range from 3 to 20 such as 8-12"),
        ("start.marks_to_set_s = 8-25", "start.marks_to_set_s = 8-25: expected seconds from \"On your marks\" to \"Set\", a range from 3 to 20 such as 8-12"),
        ("start.go = cannon", "start.go = cannon: expected gunshot, beep, whistle or word (the spoken \"Go!\"): GO in a countdown and a voice start"),
        ("announce = yes", "announce = yes: expected on or off (say each run's or lap's time after its crossing)"),
    ])
    func refusesABadVoiceKey(line: String, problem: String) {
        #expect(throws: ConfigError(file: "t.conf", line: 1, problem: problem)) { try apply(line) }
    }

    @Test func aJoinerWithoutACodeJoinsItsBondedHost() throws {
        let joiner = try apply("board = x\nrace = join\n")
        try joiner.validate()
        #expect(joiner.race == .join && joiner.raceSession == nil)
    }

    @Test func readsTheImagesDebugKeys() throws {
        let off = try apply("board = x\n")
        #expect(!off.debugConsole && !off.debugSSH)
        let on = try apply("debug.console = on\ndebug.ssh = on\n")
        #expect(on.debugConsole && on.debugSSH)
        #expect(throws: ConfigError.self) { try apply("debug.ssh = yes\n") }
    }

    @Test func readsThePhotosKeys() throws {
        let defaults = try apply("board = x\n").photos
        #expect(defaults.enabled && defaults.framesBefore == 2 && defaults.framesAfter == 2 && defaults.maxMegabytes == 512)
        let set = try apply("photos = off\nphotos.frames_before = 0\nphotos.frames_after = 5\nphotos.max_mb = 2048\n").photos
        #expect(!set.enabled && set.framesBefore == 0 && set.framesAfter == 5 && set.maxBytes == 2048 << 20)
        #expect(throws: ConfigError(file: "t.conf", line: 1, problem: "photos.frames_after = 11: expected scrub frames kept after the crossing frame, from 0 to 10")) {
            try apply("photos.frames_after = 11")
        }
        #expect(throws: ConfigError.self) { try apply("photos.max_mb = 0\n") }
        #expect(throws: ConfigError.self) { try apply("photos = yes\n") }
    }
}
