/// Unmarshals values of a given signature from a message's bytes, in the byte order the message names,
/// aligning from the start of the message. Every length is checked against the bytes there are.
package struct DBusReader: Sendable {
    let bytes: [UInt8]
    let bigEndian: Bool
    package private(set) var offset: Int
    /// Nesting depth, bounded as the specification bounds it (32 arrays and 32 structures).
    private var depth = 0

    package init(_ bytes: [UInt8], bigEndian: Bool, offset: Int = 0) {
        self.bytes = bytes
        self.bigEndian = bigEndian
        self.offset = offset
    }

    package mutating func skip(to alignment: Int) throws(DBusWireError) {
        let padded = (offset + alignment - 1) / alignment * alignment
        guard padded <= bytes.count else { throw DBusWireError("the message ends inside padding") }
        offset = padded
    }

    /// Reads one value of the complete type `signature`.
    package mutating func read(_ signature: String) throws(DBusWireError) -> DBusValue {
        guard let code = signature.first else { throw DBusWireError("an empty signature") }
        switch code {
        case "y": return .byte(try byte())
        case "b":
            let raw = try read32()
            guard raw <= 1 else { throw DBusWireError("a boolean of \(raw)") }
            return .boolean(raw == 1)
        case "i": return .int32(Int32(bitPattern: try read32()))
        case "u": return .uint32(try read32())
        case "x": return .int64(Int64(bitPattern: try read64()))
        case "d": return .double(Double(bitPattern: try read64()))
        case "s": return .string(try text(Int(try read32())))
        case "o": return .objectPath(try text(Int(try read32())))
        case "g": return .signature(try text(Int(try byte())))
        case "v":
            guard case .signature(let inner) = try read("g"), DBusSignature.split(inner)?.count == 1 else {
                throw DBusWireError("a variant without one complete type")
            }
            return .variant(try nested { (reader: inout DBusReader) throws(DBusWireError) in try reader.read(inner) })
        case "a":
            let element = String(signature.dropFirst())
            let length = Int(try read32())
            guard length <= 1 << 26 else { throw DBusWireError("an array of \(length) bytes") }
            try skip(to: DBusSignature.alignment(of: element))
            let end = offset + length
            guard end <= bytes.count else { throw DBusWireError("an array past the message's end") }
            var items: [DBusValue] = []
            while offset < end {
                items.append(
                    try nested { (reader: inout DBusReader) throws(DBusWireError) in try reader.read(element) })
            }
            guard offset == end else { throw DBusWireError("an array's elements overrun its length") }
            return .array(element, items)
        case "(", "{":
            try skip(to: 8)
            guard let fields = DBusSignature.split(String(signature.dropFirst().dropLast())) else {
                throw DBusWireError("a bad signature \(signature)")
            }
            var values: [DBusValue] = []
            for field in fields {
                values.append(try nested { (reader: inout DBusReader) throws(DBusWireError) in try reader.read(field) })
            }
            if code == "{" { return .dictEntry(values[0], values[1]) }
            return .structure(values)
        default:
            throw DBusWireError("the type \(code) is not one weatherd reads")
        }
    }

    private mutating func nested(
        _ body: (inout DBusReader) throws(DBusWireError) -> DBusValue
    ) throws(DBusWireError) -> DBusValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 64 else { throw DBusWireError("values nested too deep") }
        return try body(&self)
    }

    private mutating func take(_ count: Int) throws(DBusWireError) -> ArraySlice<UInt8> {
        guard count >= 0, offset + count <= bytes.count else { throw DBusWireError("the message ends inside a value") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    private mutating func byte() throws(DBusWireError) -> UInt8 {
        try take(1).first ?? 0
    }

    private mutating func read32() throws(DBusWireError) -> UInt32 {
        try skip(to: 4)
        let raw = try take(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return bigEndian ? raw : raw.byteSwapped
    }

    private mutating func read64() throws(DBusWireError) -> UInt64 {
        try skip(to: 8)
        let raw = try take(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return bigEndian ? raw : raw.byteSwapped
    }

    /// A string of `length` bytes and its NUL, which must be valid UTF-8 without NULs of its own.
    private mutating func text(_ length: Int) throws(DBusWireError) -> String {
        let raw = try take(length)
        guard try byte() == 0, !raw.contains(0) else { throw DBusWireError("a string not ended by one NUL") }
        guard let text = String(validating: raw, as: UTF8.self) else { throw DBusWireError("a string not in UTF-8") }
        return text
    }
}
