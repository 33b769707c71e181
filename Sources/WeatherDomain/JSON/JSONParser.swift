/// Why input is not acceptable JSON, and where.
package struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of problem, which the RPC front maps to an error code.
    package enum Kind: String, Sendable {
        case invalidUTF8, tooDeep, syntax, duplicateKey, numberOutOfRange, byteOrderMark
    }

    package var kind: Kind
    /// The byte offset where the problem was found.
    package var offset: Int
    /// A human sentence.
    package var message: String

    package init(kind: Kind, offset: Int, message: String) {
        self.kind = kind
        self.offset = offset
        self.message = message
    }

    package var description: String { message }
}

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
private struct JSONParser {
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

    mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
            if byte < 0x20 { throw fail(.syntax, "unescaped control character in string") }
            if byte >= 0x80 { try validateUTF8Sequence() } else { index += 1 }
        }
        throw fail(.syntax, "unterminated string")
    }

    /// The slow path: a string with escapes, decoded into a byte buffer.
    mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
        var out = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw fail(.invalidUTF8, "a high surrogate escape without its low half") }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else {
                            throw fail(.invalidUTF8, "a high surrogate escape without its low half")
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw fail(.invalidUTF8, "a lone low surrogate escape")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail(.invalidUTF8, "invalid escape") }
                    out.append(contentsOf: UTF8.encode(unicode)!)
                default:
                    index -= 1
                    throw fail(.syntax, "invalid escape sequence")
                }
            default:
                if byte < 0x20 { throw fail(.syntax, "unescaped control character in string") }
                let sequenceStart = index
                if byte >= 0x80 { try validateUTF8Sequence() } else { index += 1 }
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[sequenceStart..<index]))
            }
        }
        throw fail(.syntax, "unterminated string")
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail(.syntax, "truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x37)
            case 0x61...0x66: digit = UInt32(byte - 0x57)
            default: throw fail(.syntax, "invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Validates one multi-byte UTF-8 sequence at `index` and moves past it (RFC 3629 table).
    mutating func validateUTF8Sequence() throws(JSONParseError) {
        let first = bytes[index]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch first {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: throw fail(.invalidUTF8, "invalid UTF-8 lead byte")
        }
        guard index + length <= bytes.count else { throw fail(.invalidUTF8, "truncated UTF-8 sequence") }
        let second = bytes[index + 1]
        guard second >= low, second <= high else { throw fail(.invalidUTF8, "invalid UTF-8 sequence") }
        for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 {
            throw fail(.invalidUTF8, "invalid UTF-8 continuation byte")
        }
        index += length
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail(.syntax, "invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw fail(.syntax, "leading zero in number") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        var integral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail(.syntax, "a digit must follow '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail(.syntax, "invalid exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let literal = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
        if integral, literal.count <= 20, let value = integer(literal) { return .int(value) }
        let text = String(decoding: literal, as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONParseError(
                kind: .numberOutOfRange, offset: start, message: "number out of range at byte \(start)")
        }
        return .double(value)
    }

    func integer(_ literal: UnsafeRawBufferPointer) -> Int64? {
        var negative = false
        var position = 0
        if literal[0] == UInt8(ascii: "-") {
            negative = true
            position = 1
        }
        var value: Int64 = 0
        while position < literal.count {
            let digit = Int64(literal[position] - 0x30)
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = next
            position += 1
        }
        return value
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}

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

    /// Steps over one value, checking only that its strings end and its brackets balance.
    mutating func skipValue() throws(JSONParseError) {
        guard index < bytes.count else { throw fail(.syntax, "unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return try skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            break
        default:
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return
                default: index += 1
                }
            }
            return
        }
        switch Self.skipBalanced(bytes, from: index, maxDepth: maxDepth) {
        case .end(let end): index = end
        case .tooDeep: throw fail(.tooDeep, "nesting deeper than \(maxDepth) levels")
        case .unterminatedString: throw fail(.syntax, "unterminated string")
        case .unterminated: throw fail(.syntax, "unterminated array or object")
        }
    }

    mutating func skipString() throws(JSONParseError) {
        guard let end = Self.stringEnd(bytes, from: index) else { throw fail(.syntax, "unterminated string") }
        index = end
    }

    /// Where a stepped-over array or object ends, or why it does not.
    private enum Skipped {
        case end(Int)
        case tooDeep
        case unterminatedString
        case unterminated
    }

    /// What each byte means to the skipping scans: 0 nothing, 1 a quote, 2 a backslash, 3 an opening bracket,
    /// 4 a closing one. One load per byte decides, which is what makes stepping over the large payloads of
    /// a log's fetches cheap.
    private static let skipClasses: [UInt8] = {
        var classes = [UInt8](repeating: 0, count: 256)
        classes[0x22] = 1
        classes[0x5C] = 2
        for open in [UInt8(ascii: "{"), UInt8(ascii: "[")] { classes[Int(open)] = 3 }
        for close in [UInt8(ascii: "}"), UInt8(ascii: "]")] { classes[Int(close)] = 4 }
        return classes
    }()

    /// The index after the array or object that begins at `start` (its strings closed, its brackets matched).
    private static func skipBalanced(_ bytes: UnsafeRawBufferPointer, from start: Int, maxDepth: Int) -> Skipped {
        skipClasses.withUnsafeBufferPointer { classes in
            let count = bytes.count
            var index = start
            var level = 0
            while index < count {
                switch classes[Int(bytes[index])] {
                case 1:
                    guard let end = stringEnd(bytes, from: index, classes: classes) else { return .unterminatedString }
                    index = end
                    continue
                case 3:
                    level += 1
                    if level >= maxDepth { return .tooDeep }
                case 4:
                    level -= 1
                    if level == 0 { return .end(index + 1) }
                default:
                    break
                }
                index += 1
            }
            return .unterminated
        }
    }

    /// The index after the string whose opening quote is at `start`; nil when it does not end.
    private static func stringEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        skipClasses.withUnsafeBufferPointer { stringEnd(bytes, from: start, classes: $0) }
    }

    private static func stringEnd(
        _ bytes: UnsafeRawBufferPointer, from start: Int, classes: UnsafeBufferPointer<UInt8>
    ) -> Int? {
        let count = bytes.count
        var index = start + 1
        while index < count {
            switch classes[Int(bytes[index])] {
            case 1: return index + 1
            case 2: index += 2
            default: index += 1
            }
        }
        return nil
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
