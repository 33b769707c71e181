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
                    key.withUnsafeBufferPointer { appendJSONStringBytes($0, to: &buffer) }
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

private func appendJSONStringBytes(_ utf8: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
    buffer.append(UInt8(ascii: "\""))
    // Runs of bytes that need no escape are copied whole; only the bytes between them are looked at twice.
    var run = 0
    var index = 0
    while index < utf8.count {
        let byte = utf8[index]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0xE2 else {
            index += 1
            continue
        }
        // E2 80 A8 is U+2028 and E2 80 A9 U+2029; any other E2 sequence stays raw.
        let separator =
            byte == 0xE2 && index + 2 < utf8.count && utf8[index + 1] == 0x80
            && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9)
        if byte == 0xE2 && !separator {
            index += 1
            continue
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
        if separator {
            let last = utf8[index + 2] == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9")
            buffer.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x32, 0x30, 0x32, last])
            index += 3
        } else {
            appendEscape(byte, to: &buffer)
            index += 1
        }
        run = index
    }
    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<utf8.count]))
    buffer.append(UInt8(ascii: "\""))
}

/// Appends the escape of `"`, `\\` or a control character.
private func appendEscape(_ byte: UInt8, to buffer: inout [UInt8]) {
    switch byte {
    case UInt8(ascii: "\""): buffer.append(contentsOf: [0x5C, 0x22])
    case UInt8(ascii: "\\"): buffer.append(contentsOf: [0x5C, 0x5C])
    case 0x0A: buffer.append(contentsOf: [0x5C, UInt8(ascii: "n")])
    case 0x0D: buffer.append(contentsOf: [0x5C, UInt8(ascii: "r")])
    case 0x09: buffer.append(contentsOf: [0x5C, UInt8(ascii: "t")])
    case 0x08: buffer.append(contentsOf: [0x5C, UInt8(ascii: "b")])
    case 0x0C: buffer.append(contentsOf: [0x5C, UInt8(ascii: "f")])
    default:
        buffer.append(contentsOf: [
            0x5C, UInt8(ascii: "u"), 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)],
        ])
    }
}

/// Appends a finite Double in its shortest round-trip form (`5.0`, `0.1`, `1e-05`); non-finite as `null`.
package func appendJSONNumber(_ value: Double, to buffer: inout [UInt8]) {
    guard value.isFinite else {
        buffer.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        return
    }
    buffer.append(contentsOf: value.description.utf8)
}
