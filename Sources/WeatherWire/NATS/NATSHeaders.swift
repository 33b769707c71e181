/// A NATS message's headers (`HPUB`, `HMSG`): the `NATS/1.0` line, maybe with a status (`503` for no
/// responders, `404`, `408`), then `Name: value` lines, then an empty line.
///
/// Names keep their case as sent and are looked up without regard to it; a name may repeat (the first value is
/// what `subscript` gives).
package struct NATSHeaders: Sendable, Equatable {
    /// The status on the first line, if any (`503`).
    package var status: Int?
    /// The status's description, if any (`No Responders`).
    package var statusDescription: String?
    /// The fields in the order sent.
    package var fields: [(name: String, value: String)]

    package init(status: Int? = nil, statusDescription: String? = nil, _ fields: [(name: String, value: String)] = []) {
        self.status = status
        self.statusDescription = statusDescription
        self.fields = fields
    }

    package static func == (lhs: NATSHeaders, rhs: NATSHeaders) -> Bool {
        lhs.status == rhs.status && lhs.statusDescription == rhs.statusDescription
            && lhs.fields.map(\.name) == rhs.fields.map(\.name) && lhs.fields.map(\.value) == rhs.fields.map(\.value)
    }

    /// The first value of `name` (any case), if any.
    package subscript(name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    /// The headers as sent: `NATS/1.0\r\n`, each field, then an empty line.
    ///
    /// A name or value holding a line end or a name holding a colon cannot be sent; `encoded` drops such a
    /// field's line breaks rather than let it split the block (callers give fixed names and plain values).
    package var encoded: [UInt8] {
        var text = "NATS/1.0"
        if let status { text += " \(status)" }
        if let statusDescription { text += " \(statusDescription)" }
        text += "\r\n"
        for (name, value) in fields {
            text += Self.clean(name) + ": " + Self.clean(value) + "\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    private static func clean(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" })
    }

    /// Reads a header block.
    ///
    /// - Throws: `NATSProtocolError` when it does not begin with `NATS/1.0`, does not end with an empty line,
    ///   or holds a line without a colon.
    package init(parsing bytes: some Collection<UInt8>) throws(NATSProtocolError) {
        let block = Array(bytes)
        guard block.count >= 4, block.suffix(4) == [13, 10, 13, 10] else {
            throw .malformed("a header block without its empty last line")
        }
        // Split on bytes: a String sees "\r\n" as one character.
        var lines = block.dropLast(4).split(separator: 10, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 13 ? line.dropLast() : line, as: UTF8.self)
        }
        guard let first = lines.first, first.hasPrefix("NATS/1.0") else {
            throw .malformed("a header block that does not begin with NATS/1.0")
        }
        lines.removeFirst()
        let statusText = first.dropFirst("NATS/1.0".count).drop { $0 == " " }
        status = nil
        statusDescription = nil
        if !statusText.isEmpty {
            let code = statusText.prefix { $0 != " " }
            guard let number = Int(code), (100...999).contains(number) else {
                throw .malformed("a header status that is not a number: \(String(code.prefix(20)))")
            }
            status = number
            let rest = statusText.dropFirst(code.count).drop { $0 == " " }
            statusDescription = rest.isEmpty ? nil : String(rest)
        }
        fields = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else {
                throw .malformed("a header line without a colon: \(String(line.prefix(40)).debugDescription)")
            }
            let name = String(line[..<colon])
            let value = String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
            guard !name.isEmpty else { throw .malformed("a header line without a name") }
            fields.append((name, value))
        }
    }
}
