/// Reads typed fields of one JSON object, naming the message type and the
/// field's path in every refusal. A null counts as absent, so an optional
/// field may be null or left out, and a required one may be neither.
struct FieldReader {
    let object: JSONObject
    let messageType: String
    /// The object's own path: "" for the envelope, "payload", "payload.settings".
    let path: String

    func fieldPath(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    func refuse(_ key: String, expected: String, found: String) -> MessageDecodeError {
        .field(messageType: messageType, field: fieldPath(key), expected: expected, found: found)
    }

    private func present(_ key: String) -> JSONValue? {
        guard let value = object[key] else { return nil }
        if case .null = value { return nil }
        return value
    }

    /// How an absent field was absent, for refusals: "missing" or "null".
    private func absence(_ key: String) -> String { object[key] == nil ? "missing" : "null" }

    private func required(_ key: String, _ expected: String) throws(MessageDecodeError) -> JSONValue {
        guard let value = present(key) else { throw refuse(key, expected: expected, found: absence(key)) }
        return value
    }

    // MARK: strings

    func optionalString(_ key: String) throws(MessageDecodeError) -> String? {
        guard let value = present(key) else { return nil }
        guard case .string(let string) = value else { throw refuse(key, expected: "a string", found: value.kindName) }
        return string
    }

    func string(_ key: String) throws(MessageDecodeError) -> String {
        let value = try required(key, "a string")
        guard case .string(let string) = value else { throw refuse(key, expected: "a string", found: value.kindName) }
        return string
    }

    // MARK: numbers

    func optionalInt64(_ key: String) throws(MessageDecodeError) -> Int64? {
        guard let value = present(key) else { return nil }
        return try int64(key, value)
    }

    func int64(_ key: String) throws(MessageDecodeError) -> Int64 {
        try int64(key, try required(key, "an integer"))
    }

    private func int64(_ key: String, _ value: JSONValue) throws(MessageDecodeError) -> Int64 {
        guard case .number(let number) = value else { throw refuse(key, expected: "an integer", found: value.kindName) }
        guard let integer = number.int64Value else {
            throw refuse(key, expected: "an integer within 64 bits", found: "the number " + number.text)
        }
        return integer
    }

    func int(_ key: String) throws(MessageDecodeError) -> Int { Int(truncatingIfNeeded: try int64(key)) }

    func optionalInt(_ key: String) throws(MessageDecodeError) -> Int? {
        guard let integer = try optionalInt64(key) else { return nil }
        return Int(truncatingIfNeeded: integer)
    }

    func optionalDouble(_ key: String) throws(MessageDecodeError) -> Double? {
        guard let value = present(key) else { return nil }
        return try double(key, value)
    }

    func double(_ key: String) throws(MessageDecodeError) -> Double {
        try double(key, try required(key, "a number"))
    }

    private func double(_ key: String, _ value: JSONValue) throws(MessageDecodeError) -> Double {
        guard case .number(let number) = value else { throw refuse(key, expected: "a number", found: value.kindName) }
        let double = number.doubleValue
        guard double.isFinite else { throw refuse(key, expected: "a number within Double's range", found: "the number " + number.text) }
        return double
    }

    // MARK: booleans

    func optionalBool(_ key: String) throws(MessageDecodeError) -> Bool? {
        guard let value = present(key) else { return nil }
        guard case .bool(let flag) = value else { throw refuse(key, expected: "true or false", found: value.kindName) }
        return flag
    }

    func bool(_ key: String) throws(MessageDecodeError) -> Bool {
        let value = try required(key, "true or false")
        guard case .bool(let flag) = value else { throw refuse(key, expected: "true or false", found: value.kindName) }
        return flag
    }

    // MARK: nested values

    func optionalObject(_ key: String) throws(MessageDecodeError) -> FieldReader? {
        guard let value = present(key) else { return nil }
        guard case .object(let nested) = value else { throw refuse(key, expected: "an object", found: value.kindName) }
        return FieldReader(object: nested, messageType: messageType, path: fieldPath(key))
    }

    func object(_ key: String) throws(MessageDecodeError) -> FieldReader {
        guard let nested = try optionalObject(key) else { throw refuse(key, expected: "an object", found: absence(key)) }
        return nested
    }

    /// Each element of an array of objects, as a reader whose path is "key[i]".
    func objects(_ key: String) throws(MessageDecodeError) -> [FieldReader] {
        let value = try required(key, "an array")
        guard case .array(let elements) = value else { throw refuse(key, expected: "an array", found: value.kindName) }
        var readers: [FieldReader] = []
        readers.reserveCapacity(elements.count)
        for (position, element) in elements.enumerated() {
            let elementKey = key + "[" + String(position) + "]"
            guard case .object(let nested) = element else { throw refuse(elementKey, expected: "an object", found: element.kindName) }
            readers.append(FieldReader(object: nested, messageType: messageType, path: fieldPath(elementKey)))
        }
        return readers
    }

    // MARK: words from a fixed set

    func word<Word: WireWord>(_ key: String, as type: Word.Type) throws(MessageDecodeError) -> Word {
        let text = try string(key)
        guard let word = Word(wire: text) else {
            throw refuse(key, expected: Word.expectedDescription, found: "\"" + text + "\"")
        }
        return word
    }

    func optionalWord<Word: WireWord>(_ key: String, as type: Word.Type) throws(MessageDecodeError) -> Word? {
        guard let text = try optionalString(key) else { return nil }
        guard let word = Word(wire: text) else {
            throw refuse(key, expected: Word.expectedDescription, found: "\"" + text + "\"")
        }
        return word
    }
}
