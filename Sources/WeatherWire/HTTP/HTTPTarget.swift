/// A request target read as weatherd's routes want it: the path's segments, percent-decoded and checked to be
/// UTF-8, and the query's items (`+` is a space, as in forms and wttr.in's URLs).
///
/// Refused, with the reason: a target that is not a path (`*` or another form), bad percent-encoding, bytes
/// that decode to something other than UTF-8 or to a control character, and `.` or `..` segments (spelt out or
/// percent-encoded), so that no route ever sees a path that climbs.
package struct HTTPTarget: Sendable, Equatable {
    /// The decoded segments of the path: `/v1/current` is `["v1", "current"]`, `/` is `[]`.
    package var segments: [String]
    /// The decoded query items in order; an item without `=` has a nil value (`?m`).
    package var query: [(name: String, value: String?)]

    /// Reads `target`, in origin form (`/path?query`) or absolute form (`http://host/path?query`).
    ///
    /// - Throws: `HTTPWireError.badTarget` naming what is wrong.
    package init(_ target: String) throws(HTTPWireError) {
        var text = Substring(target)
        if let scheme = ["http://", "https://"].first(where: { text.lowercased().hasPrefix($0) }) {
            text = text.dropFirst(scheme.count)
            text = text.firstIndex(of: "/").map { text[$0...] } ?? "/"
        }
        guard text.hasPrefix("/") else { throw .badTarget("The request target must be a path starting with /.") }
        if let hash = text.firstIndex(of: "#") { text = text[..<hash] }
        let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let rawPath = parts[0]
        segments = try rawPath.split(separator: "/", omittingEmptySubsequences: true).map { raw throws(HTTPWireError) in
            let segment = try Self.decode(raw, plusIsSpace: false)
            guard segment != ".", segment != ".." else {
                throw .badTarget("The path may not hold a . or .. segment.")
            }
            guard !segment.contains("/") else { throw .badTarget("The path may not hold an encoded /.") }
            return segment
        }
        query = []
        if parts.count == 2 {
            for item in parts[1].split(separator: "&", omittingEmptySubsequences: true) {
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = try Self.decode(pair[0], plusIsSpace: true)
                let value = pair.count == 2 ? try Self.decode(pair[1], plusIsSpace: true) : nil
                query.append((name: name, value: value))
            }
        }
    }

    /// The path, decoded, with `/` between segments (`/` for none).
    package var path: String { "/" + segments.joined(separator: "/") }

    /// The value of the first query item `name` (`""` for `?name` without a value), or nil when absent.
    package func query(_ name: String) -> String? {
        query.first { $0.name == name }.map { $0.value ?? "" }
    }

    /// Whether the query holds `name`, with or without a value.
    package func has(_ name: String) -> Bool { query.contains { $0.name == name } }

    /// Percent-decodes `text` and checks the result is UTF-8 without control characters (tab aside).
    static func decode(_ text: Substring, plusIsSpace: Bool) throws(HTTPWireError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(Self.hexValue),
                    let low = iterator.next().flatMap(Self.hexValue)
                else { throw .badTarget("A % in the target is not followed by two hex digits.") }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace: bytes.append(UInt8(ascii: " "))
            default: bytes.append(byte)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .badTarget("The target's percent-encoded bytes are not UTF-8.")
        }
        guard !decoded.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) else {
            throw .badTarget("The target holds a control character.")
        }
        return decoded
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    package static func == (lhs: HTTPTarget, rhs: HTTPTarget) -> Bool {
        lhs.segments == rhs.segments
            && lhs.query.elementsEqual(rhs.query) { $0.name == $1.name && $0.value == $1.value }
    }
}
