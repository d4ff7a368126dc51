import GateCore

/// `ts-gate athletes add|list|edit|remove|show|new-season`.
public struct AthletesOptions: Equatable {
    public enum Action: Equatable {
        case add(name: String)
        case list
        /// The athlete named (name, nickname or id) and what changes.
        case edit(String)
        case remove(String)
        case show(String)
        case newSeason
    }

    public var action: Action
    public var dataDirectory: String?
    /// Fields to set; for edit, nil leaves a field as it is and "" clears
    /// an optional one.
    public var name: String?
    public var nickname: String?
    public var colour: AthleteColour?
    public var birthdate: String?
    public var gender: String?
    /// new-season: what to call it ("2027 outdoor").
    public var seasonName: String?
    /// add and edit: speak the name into a clip with espeak-ng.
    public var makeNameClip = true

    public init(action: Action) { self.action = action }
}

extension ArgumentParser {
    static let athletesActions = "add NAME, list, edit NAME, remove NAME, show NAME or new-season"

    static func parseAthletes(_ cursor: inout Cursor) throws(UsageError) -> AthletesOptions {
        guard let verb = cursor.next() else { throw UsageError("athletes needs an action: " + athletesActions) }
        func subject(_ what: String) throws(UsageError) -> String {
            guard let key = cursor.next(), !key.hasPrefix("--") else {
                throw UsageError("athletes " + verb + " needs " + what + " (ts-gate athletes list shows them)")
            }
            return key
        }
        var options: AthletesOptions
        switch verb {
        case "add":
            let name = try subject("the athlete's name, such as \"Ada Quick\"")
            if let problem = AthleteFieldCheck.name(name) { throw UsageError("athletes add: " + problem) }
            options = AthletesOptions(action: .add(name: name))
        case "list": options = AthletesOptions(action: .list)
        case "edit": options = AthletesOptions(action: .edit(try subject("the athlete's name, nickname or id")))
        case "remove": options = AthletesOptions(action: .remove(try subject("the athlete's name, nickname or id")))
        case "show": options = AthletesOptions(action: .show(try subject("the athlete's name, nickname or id")))
        case "new-season": options = AthletesOptions(action: .newSeason)
        default: throw UsageError("athletes: unknown action '" + verb + "' (actions: " + athletesActions + ")")
        }
        var allowed = ["--data-dir"]
        var editing = false
        switch options.action {
        case .add: allowed += ["--nickname", "--colour", "--color", "--birthdate", "--gender", "--no-voice"]
        case .edit:
            allowed += ["--name", "--nickname", "--colour", "--color", "--birthdate", "--gender", "--no-voice"]
            editing = true
        case .newSeason: allowed += ["--name"]
        default: break
        }
        let accepted = allowed.filter { $0 != "--color" }.joined(separator: ", ")
        while let argument = cursor.next() {
            guard allowed.contains(argument) else { throw unknown(argument, accepted: accepted) }
            switch argument {
            case "--data-dir":
                options.dataDirectory = try cursor.value(for: argument, accepts: "a directory path")
            case "--name" where options.action == .newSeason:
                options.seasonName = try cursor.value(for: argument, accepts: "the season's name, such as \"2027 indoor\"")
            case "--name":
                let name = try cursor.value(for: argument, accepts: "the athlete's new name")
                if let problem = AthleteFieldCheck.name(name) { throw UsageError(argument + ": " + problem) }
                options.name = name
            case "--nickname":
                let nickname = try cursor.value(for: argument, accepts: "a short name the box says" + (editing ? " (\"\" removes it)" : ""))
                if !(editing && nickname.isEmpty), let problem = AthleteFieldCheck.name(nickname, field: "nickname") {
                    throw UsageError(argument + ": " + problem)
                }
                options.nickname = nickname
            case "--colour", "--color":
                let text = try cursor.value(for: argument, accepts: AthleteColour.names)
                guard let colour = AthleteColour(name: text) else {
                    throw UsageError(argument + " expects " + AthleteColour.names + ", got '" + text + "'")
                }
                options.colour = colour
            case "--birthdate":
                let text = try cursor.value(for: argument, accepts: "a date as YYYY-MM-DD")
                if !(editing && text.isEmpty), let problem = AthleteFieldCheck.birthdate(text) { throw UsageError(argument + ": " + problem) }
                options.birthdate = text
            case "--gender":
                let text = try cursor.value(for: argument, accepts: AthleteGender.names)
                guard (editing && text.isEmpty) || AthleteGender(name: text) != nil else {
                    throw UsageError(argument + " expects " + AthleteGender.names + (editing ? " (\"\" removes it)" : "") + ", got '" + text + "'")
                }
                options.gender = text
            case "--no-voice":
                options.makeNameClip = false
            default:
                throw unknown(argument, accepted: accepted)
            }
        }
        return options
    }
}
