extension JSONParser {
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
}
