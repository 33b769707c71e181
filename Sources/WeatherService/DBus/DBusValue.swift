/// A value of the D-Bus type system, as the wire format marshals it (D-Bus specification, "Type System").
package indirect enum DBusValue: Sendable, Equatable {
    case byte(UInt8)
    case boolean(Bool)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// An array of elements of one type, named by its signature (`s`, `{sv}`…), so an empty array has a type.
    case array(String, [DBusValue])
    case structure([DBusValue])
    case dictEntry(DBusValue, DBusValue)
    case variant(DBusValue)

    /// The value's type signature.
    package var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .array(let element, _): "a" + element
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .variant: "v"
        }
    }

    /// A dictionary `a{sv}`, keys in the order given.
    package static func vardict(_ entries: [(String, DBusValue)]) -> DBusValue {
        .array("{sv}", entries.map { .dictEntry(.string($0.0), .variant($0.1)) })
    }

    /// The string of a `s`, `o` or `g`; nil for another type.
    package var text: String? {
        switch self {
        case .string(let text), .objectPath(let text), .signature(let text): text
        default: nil
        }
    }

    /// The number of a `u`; nil for another type.
    package var uint32Value: UInt32? {
        if case .uint32(let value) = self { return value }
        return nil
    }

    /// The number of a `d`; nil for another type.
    package var doubleValue: Double? {
        if case .double(let value) = self { return value }
        return nil
    }

    /// The value inside a variant; any other value as it is.
    package var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }
}

/// Why bytes are not a D-Bus message weatherd can read.
package struct DBusWireError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) { self.message = message }

    package var description: String { "D-Bus: \(message)" }
}

/// Marshals values in little-endian byte order, aligning each to its type's boundary from the start of
/// the message (the body starts on an 8-byte boundary, so offsets in it align the same).
package struct DBusWriter: Sendable {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package mutating func pad(to alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    package mutating func write(_ value: DBusValue) {
        switch value {
        case .byte(let byte): bytes.append(byte)
        case .boolean(let flag): write32(flag ? 1 : 0)
        case .int32(let number): write32(UInt32(bitPattern: number))
        case .uint32(let number): write32(number)
        case .int64(let number): write64(UInt64(bitPattern: number))
        case .double(let number): write64(number.bitPattern)
        case .string(let text), .objectPath(let text):
            write32(UInt32(text.utf8.count))
            bytes += text.utf8
            bytes.append(0)
        case .signature(let text):
            bytes.append(UInt8(text.utf8.count))
            bytes += text.utf8
            bytes.append(0)
        case .array(let element, let items):
            write32(0)
            let lengthAt = bytes.count - 4
            pad(to: DBusSignature.alignment(of: element))
            let start = bytes.count
            for item in items { write(item) }
            let length = UInt32(bytes.count - start)
            withUnsafeBytes(of: length.littleEndian) { bytes.replaceSubrange(lengthAt..<lengthAt + 4, with: $0) }
        case .structure(let fields):
            pad(to: 8)
            for field in fields { write(field) }
        case .dictEntry(let key, let value):
            pad(to: 8)
            write(key)
            write(value)
        case .variant(let inner):
            write(.signature(inner.signature))
            write(inner)
        }
    }

    private mutating func write32(_ value: UInt32) {
        pad(to: 4)
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private mutating func write64(_ value: UInt64) {
        pad(to: 8)
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }
}

/// Signatures: the alignment of a type and the split of a signature into its complete types.
package enum DBusSignature {
    /// The boundary a value of the complete type starting `signature` aligns to.
    package static func alignment(of signature: String) -> Int {
        switch signature.first {
        case "y", "g", "v": 1
        case "n", "q": 2
        case "x", "t", "d", "(", "{": 8
        default: 4
        }
    }

    /// The complete types of `signature` in order; nil when it is not well formed.
    package static func split(_ signature: String) -> [String]? {
        var types: [String] = []
        var rest = Substring(signature)
        while !rest.isEmpty {
            guard let length = completeLength(rest) else { return nil }
            types.append(String(rest.prefix(length)))
            rest = rest.dropFirst(length)
        }
        return types
    }

    /// The length of the complete type at the start of `signature`.
    static func completeLength(_ signature: Substring) -> Int? {
        guard let first = signature.first else { return nil }
        switch first {
        case "y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g", "v", "h": return 1
        case "a":
            return completeLength(signature.dropFirst()).map { $0 + 1 }
        case "(", "{":
            let close: Character = first == "(" ? ")" : "}"
            var offset = 1
            var inner = signature.dropFirst()
            var count = 0
            while inner.first != close {
                guard let length = completeLength(inner) else { return nil }
                inner = inner.dropFirst(length)
                offset += length
                count += 1
            }
            guard count > 0, first == "(" || count == 2 else { return nil }
            return offset + 1
        default:
            return nil
        }
    }
}
