extension JSONValue {
    /// Parses exactly one JSON value (RFC 8259, strict), with white space around it allowed.
    ///
    /// - Parameter maxDepth: the deepest nesting of arrays and objects accepted.
    /// - Throws: `JSONParseError` for invalid UTF-8, a BOM, bad syntax, duplicate keys, numbers that do
    ///   not fit a Double, or nesting deeper than `maxDepth`.
    package static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 64) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        return try parser.parseDocument()
    }

    /// Parses a byte collection; see `parse(_:maxDepth:)`.
    package static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = 64) throws(JSONParseError) -> JSONValue {
        let contiguous = bytes.withContiguousStorageIfAvailable { buffer in
            parseResult(UnsafeRawBufferPointer(buffer), maxDepth: maxDepth)
        }
        let result = contiguous ?? Array(bytes).withUnsafeBytes { parseResult($0, maxDepth: maxDepth) }
        return try result.get()
    }

    private static func parseResult(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) -> Result<JSONValue, JSONParseError>
    {
        do throws(JSONParseError) {
            return .success(try parse(bytes, maxDepth: maxDepth))
        } catch {
            return .failure(error)
        }
    }

    /// Parses text; see `parse(_:maxDepth:)`.
    package static func parse(_ text: String, maxDepth: Int = 64) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }
}

/// A recursive-descent parser over bytes; recursion is bounded by `maxDepth`.
struct JSONParser {
    let bytes: UnsafeRawBufferPointer
    let maxDepth: Int
    var index = 0
    var depth = 0
    /// Members of the objects being parsed, innermost last: collected first so that each object's
    /// dictionary is made once at its final size instead of growing member by member.
    var members: [(key: String, offset: Int, value: JSONValue)] = []

    init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    func fail(_ kind: JSONParseError.Kind, _ message: String) -> JSONParseError {
        if kind == .syntax, index < bytes.count, bytes[index] >= 0x80 {
            var probe = self
            do throws(JSONParseError) {
                try probe.validateUTF8Sequence()
            } catch {
                return error
            }
        }
        return JSONParseError(kind: kind, offset: index, message: "\(message) at byte \(index)")
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw fail(.byteOrderMark, "a byte order mark is not allowed")
        }
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw fail(.syntax, "unexpected content after the value") }
        return value
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw fail(.syntax, "unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default:
            if bytes[index] >= 0x80 { throw fail(.syntax, "unexpected non-ASCII byte") }
            throw fail(.syntax, "unexpected character '\(UnicodeScalar(bytes[index]))'")
        }
    }

    mutating func literal(_ word: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail(.syntax, "unexpected end of input") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw fail(.syntax, "invalid literal")
        }
        index += count
        return value
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > maxDepth { throw fail(.tooDeep, "nesting deeper than \(maxDepth) levels") }
    }

    mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            if try closes(UInt8(ascii: "]"), "array") {
                depth -= 1
                return .array(elements)
            }
        }
    }

    mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object([:])
        }
        let first = members.count
        while true {
            let keyOffset = index
            let key = try parseMemberKey()
            let value = try parseValue()
            members.append((key, keyOffset, value))
            if try closes(UInt8(ascii: "}"), "object") {
                depth -= 1
                return .object(try collect(from: first))
            }
        }
    }

    /// Reads a member's key and the `:` after it, leaving `index` at its value.
    mutating func parseMemberKey() throws(JSONParseError) -> String {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw fail(.syntax, "expected a string key in object")
        }
        let key = try parseString()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw fail(.syntax, "expected ':' after object key")
        }
        index += 1
        skipWhitespace()
        return key
    }

    /// After an element or member: moves past a `,` (false: more follow) or the `closing` bracket (true).
    mutating func closes(_ closing: UInt8, _ container: String) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw fail(.syntax, "unterminated \(container)") }
        switch bytes[index] {
        case UInt8(ascii: ","):
            index += 1
            return false
        case closing:
            index += 1
            return true
        default:
            throw fail(.syntax, "expected ',' or '\(UnicodeScalar(closing))' in \(container)")
        }
    }

    /// Makes the dictionary of the members collected since `first`, refusing a duplicate key.
    mutating func collect(from first: Int) throws(JSONParseError) -> [String: JSONValue] {
        var object = [String: JSONValue](minimumCapacity: members.count - first)
        for member in members[first...] where object.updateValue(member.value, forKey: member.key) != nil {
            throw Self.duplicateKey(member.key, at: member.offset)
        }
        members.removeSubrange(first...)
        return object
    }

    static func duplicateKey(_ key: String, at offset: Int) -> JSONParseError {
        JSONParseError(kind: .duplicateKey, offset: offset, message: "duplicate key \"\(key)\" at byte \(offset)")
    }
}
