extension JSONValue {
    /// Parses the members named in `names` of a top-level object and steps over the others without
    /// building them, so a few fields of a large payload cost little.
    ///
    /// The members stepped over are checked only for balance (strings closed, brackets matched), not
    /// decoded; use it on bytes whose integrity is known (a log line whose crc holds).
    ///
    /// - Throws: `JSONParseError` when the value is not an object or a kept member is not valid JSON.
    package static func parseMembers(
        _ bytes: UnsafeRawBufferPointer, keeping names: Set<String>, maxDepth: Int = 64
    ) throws(JSONParseError) -> [String: JSONValue] {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        return try parser.parseMembers(keeping: names)
    }
}

extension JSONParser {
    mutating func parseMembers(keeping names: Set<String>) throws(JSONParseError) -> [String: JSONValue] {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { throw fail(.syntax, "expected an object") }
        index += 1
        var kept: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { return kept }
        while true {
            let keyOffset = index
            let key = try parseMemberKey()
            if names.contains(key) {
                depth = 1
                if kept.updateValue(try parseValue(), forKey: key) != nil {
                    throw Self.duplicateKey(key, at: keyOffset)
                }
            } else {
                try skipValue()
            }
            if try closes(UInt8(ascii: "}"), "object") {
                skipWhitespace()
                guard index == bytes.count else { throw fail(.syntax, "unexpected content after the value") }
                return kept
            }
        }
    }
}

extension JSONValue {
    /// The value of member `name` exactly as written, in the top-level object of `bytes` or in each element
    /// of a top-level array: one entry per object, nil where the member is absent or the element is not an
    /// object.
    ///
    /// The RPC front echoes a numeric request id with it, so that `-0`, `1.50` or `9223372036854775808`
    /// come back as the client wrote them. Values are stepped over, not decoded: call it only on bytes
    /// that `parse` accepted; for bytes that are not JSON it answers an empty array.
    package static func memberTexts(_ name: String, in bytes: some Collection<UInt8>) -> [[UInt8]?] {
        func scan(_ buffer: UnsafeRawBufferPointer) -> [[UInt8]?] {
            var parser = JSONParser(bytes: buffer, maxDepth: 64)
            do throws(JSONParseError) {
                return try parser.memberTexts(name).map { $0.map { Array(buffer[$0]) } }
            } catch {
                return []
            }
        }
        return bytes.withContiguousStorageIfAvailable { scan(UnsafeRawBufferPointer($0)) }
            ?? Array(bytes).withUnsafeBytes { scan($0) }
    }
}

extension JSONParser {
    mutating func memberTexts(_ name: String) throws(JSONParseError) -> [Range<Int>?] {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return [try memberRange(name)] }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { return [] }
        var ranges: [Range<Int>?] = []
        repeat {
            skipWhitespace()
            ranges.append(try memberRange(name))
        } while try !closes(UInt8(ascii: "]"), "array")
        return ranges
    }

    /// Steps over the value at `index`; when it is an object, answers where its member `name`'s value lies.
    mutating func memberRange(_ name: String) throws(JSONParseError) -> Range<Int>? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            try skipValue()
            return nil
        }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return nil
        }
        var found: Range<Int>?
        repeat {
            let key = try parseMemberKey()
            let start = index
            try skipValue()
            if key == name { found = start..<index }
        } while try !closes(UInt8(ascii: "}"), "object")
        return found
    }
}
