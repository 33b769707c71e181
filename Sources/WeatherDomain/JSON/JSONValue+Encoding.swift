extension JSONValue {
    /// Appends the canonical encoding: no white space, object keys sorted by their UTF-8 bytes.
    ///
    /// Sorting by bytes (not Swift's `String <`) gives the same order as code points, and so as
    /// other languages' sorted-key encoders: the bytes that checksums cover never depend on platform.
    package func encode(into buffer: inout [UInt8]) {
        switch self {
        case .null: buffer.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(true): buffer.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
        case .bool(false): buffer.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
        case .int(let value): buffer.append(contentsOf: String(value).utf8)
        case .double(let value): appendJSONNumber(value, to: &buffer)
        case .string(let value): appendJSONString(value, to: &buffer)
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                element.encode(into: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let members):
            buffer.append(UInt8(ascii: "{"))
            if members.count == 1, let (key, value) = members.first {
                appendJSONString(key, to: &buffer)
                buffer.append(UInt8(ascii: ":"))
                value.encode(into: &buffer)
            } else {
                let sorted = members.map { (Array($0.key.utf8), $0.value) }.sorted {
                    $0.0.lexicographicallyPrecedes($1.0)
                }
                for (index, (key, value)) in sorted.enumerated() {
                    if index > 0 { buffer.append(UInt8(ascii: ",")) }
                    appendJSONStringBytes(key, to: &buffer)
                    buffer.append(UInt8(ascii: ":"))
                    value.encode(into: &buffer)
                }
            }
            buffer.append(UInt8(ascii: "}"))
        }
    }

    /// The canonical encoding as bytes.
    package var jsonBytes: [UInt8] {
        var buffer: [UInt8] = []
        encode(into: &buffer)
        return buffer
    }

    /// The canonical encoding as a string.
    package var jsonString: String { String(decoding: jsonBytes, as: UTF8.self) }
}

private let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

/// Appends `string` as a JSON string literal (with its quotes) to `buffer`.
///
/// `"`, `\`, control characters and the line and paragraph separators U+2028 and U+2029 are escaped;
/// everything else is written as raw UTF-8. The two separators are valid raw in JSON, but line splitters
/// that follow Unicode (Python's `str.splitlines`, JavaScript before ES2019) end a line at them, so no
/// line weatherd writes, on stdout or in the log, carries them raw.
package func appendJSONString(_ string: String, to buffer: inout [UInt8]) {
    var string = string
    string.withUTF8 { appendJSONStringBytes($0, to: &buffer) }
}

private func appendJSONStringBytes(_ utf8: some Collection<UInt8>, to buffer: inout [UInt8]) {
    buffer.append(UInt8(ascii: "\""))
    // The last two bytes seen, to recognise E2 80 A8 (U+2028) and E2 80 A9 (U+2029) as their third arrives.
    var previous: (UInt8, UInt8) = (0, 0)
    for byte in utf8 {
        switch byte {
        case UInt8(ascii: "\""): buffer.append(contentsOf: [0x5C, 0x22])
        case UInt8(ascii: "\\"): buffer.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: buffer.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: buffer.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: buffer.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        case 0x08: buffer.append(contentsOf: [0x5C, UInt8(ascii: "b")])
        case 0x0C: buffer.append(contentsOf: [0x5C, UInt8(ascii: "f")])
        case 0..<0x20:
            buffer.append(contentsOf: [
                0x5C, UInt8(ascii: "u"), 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)],
            ])
        case 0xA8...0xA9 where previous == (0xE2, 0x80):
            buffer.removeLast(2)
            buffer.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x32, 0x30, 0x32, byte == 0xA8 ? 0x38 : 0x39])
        default: buffer.append(byte)
        }
        previous = (previous.1, byte)
    }
    buffer.append(UInt8(ascii: "\""))
}

/// Appends a finite Double in its shortest round-trip form (`5.0`, `0.1`, `1e-05`); non-finite as `null`.
package func appendJSONNumber(_ value: Double, to buffer: inout [UInt8]) {
    guard value.isFinite else {
        buffer.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        return
    }
    buffer.append(contentsOf: value.description.utf8)
}
