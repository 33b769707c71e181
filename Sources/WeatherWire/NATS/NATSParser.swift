/// Cuts the bytes a NATS server sends into operations (`NATSServerOperation`), however the reads split them.
///
/// Bounded: a control line (`MSG foo 1 5`, `INFO {…}`) may hold at most `maxControlLine` bytes, and a message
/// at most `maxPayload` bytes (headers and body); anything larger, or anything that is not the protocol, is a
/// `NATSProtocolError` and the parser keeps nothing of it. Bytes past a whole operation wait for the next read.
package struct NATSParser: Sendable {
    /// The longest control line accepted, without its `\r\n` (the server's `INFO` is the longest: a few hundred
    /// bytes, more in a cluster with many URLs).
    package let maxControlLine: Int
    /// The largest message accepted (headers and body); the server refuses to route larger ones by default.
    package var maxPayload: Int
    private var buffer: [UInt8] = []
    /// Where the unread bytes begin in `buffer`.
    private var start = 0
    /// The message whose payload is awaited, once its control line is read.
    private var pending: Pending?

    private struct Pending {
        var subject: String
        var sid: String
        var replyTo: String?
        /// The header block's size (0 for `MSG`).
        var headerBytes: Int
        var totalBytes: Int
        var hasHeaders: Bool
    }

    package init(maxControlLine: Int = 64 * 1024, maxPayload: Int = 8 << 20) {
        self.maxControlLine = maxControlLine
        self.maxPayload = maxPayload
    }

    /// Bytes read and not yet made into operations.
    package var bufferedBytes: Int { buffer.count - start }

    /// Adds `bytes` and returns every operation now whole, in order.
    ///
    /// - Throws: `NATSProtocolError`; the parser is then empty and must not be fed again (the connection is
    ///   closed).
    package mutating func feed(_ bytes: some Collection<UInt8>) throws(NATSProtocolError) -> [NATSServerOperation] {
        buffer.append(contentsOf: bytes)
        var operations: [NATSServerOperation] = []
        do {
            while let operation = try next() { operations.append(operation) }
        } catch {
            buffer = []
            start = 0
            pending = nil
            throw error
        }
        if start > 0, start * 2 >= buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        return operations
    }

    private mutating func next() throws(NATSProtocolError) -> NATSServerOperation? {
        if let message = pending { return try payload(of: message) }
        guard let line = try controlLine() else { return nil }
        return try operation(line)
    }

    /// The next control line without its `\r\n`; nil until it is whole.
    private mutating func controlLine() throws(NATSProtocolError) -> String? {
        let unread = buffer[start...]
        guard let newline = unread.firstIndex(of: UInt8(ascii: "\n")) else {
            guard unread.count <= maxControlLine + 1 else { throw .lineTooLong(maxControlLine) }
            return nil
        }
        guard newline > start, buffer[newline - 1] == UInt8(ascii: "\r") else {
            throw .malformed("a line that does not end with \\r\\n")
        }
        guard newline - 1 - start <= maxControlLine else { throw .lineTooLong(maxControlLine) }
        let line = String(decoding: buffer[start..<(newline - 1)], as: UTF8.self)
        start = newline + 1
        return line
    }

    private mutating func operation(_ line: String) throws(NATSProtocolError) -> NATSServerOperation? {
        let verb = line.prefix { $0 != " " && $0 != "\t" }.uppercased()
        let rest = line.dropFirst(verb.count).drop { $0 == " " || $0 == "\t" }
        switch verb {
        case "PING": return .ping
        case "PONG": return .pong
        case "+OK": return .ok
        case "-ERR":
            var text = Substring(rest)
            if text.hasPrefix("'"), text.hasSuffix("'"), text.count >= 2 { text = text.dropFirst().dropLast() }
            return .error(String(text))
        case "INFO":
            guard rest.hasPrefix("{") else { throw .malformed("INFO without a JSON object") }
            return .info(String(rest))
        case "MSG", "HMSG":
            pending = try Self.header(of: rest, hasHeaders: verb == "HMSG", maxPayload: maxPayload)
            return try payload(of: pending!)
        default:
            throw .unknownOperation(line)
        }
    }

    /// Reads `MSG <subject> <sid> [reply-to] <#bytes>` or `HMSG <subject> <sid> [reply-to] <#header bytes>
    /// <#total bytes>`.
    private static func header(of arguments: Substring, hasHeaders: Bool, maxPayload: Int) throws(NATSProtocolError)
        -> Pending
    {
        let fields = arguments.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let sizes = hasHeaders ? 2 : 1
        guard fields.count == 2 + sizes || fields.count == 3 + sizes else {
            throw .malformed("\(hasHeaders ? "HMSG" : "MSG") with \(fields.count) arguments")
        }
        let numbers = fields.suffix(sizes).map { Int($0) }
        guard numbers.allSatisfy({ ($0 ?? -1) >= 0 }) else {
            throw .malformed("\(hasHeaders ? "HMSG" : "MSG") with a size that is not a number")
        }
        let total = numbers.last!!
        let headerBytes = hasHeaders ? numbers.first!! : 0
        guard headerBytes <= total else { throw .malformed("HMSG whose headers are larger than the message") }
        guard total <= maxPayload else { throw .payloadTooLarge(total, limit: maxPayload) }
        return Pending(
            subject: fields[0], sid: fields[1], replyTo: fields.count == 3 + sizes ? fields[2] : nil,
            headerBytes: headerBytes, totalBytes: total, hasHeaders: hasHeaders)
    }

    /// The message once its payload and the `\r\n` after it are there; nil until then.
    private mutating func payload(of message: Pending) throws(NATSProtocolError) -> NATSServerOperation? {
        guard buffer.count - start >= message.totalBytes + 2 else { return nil }
        let end = start + message.totalBytes
        guard buffer[end] == UInt8(ascii: "\r"), buffer[end + 1] == UInt8(ascii: "\n") else {
            throw .malformed("a message that does not end where its size says")
        }
        let headers: NATSHeaders? =
            message.hasHeaders ? try NATSHeaders(parsing: buffer[start..<(start + message.headerBytes)]) : nil
        let body = Array(buffer[(start + message.headerBytes)..<end])
        start = end + 2
        pending = nil
        return .message(
            NATSMessage(
                subject: message.subject, sid: message.sid, replyTo: message.replyTo, headers: headers, payload: body))
    }
}
