/// Reads requests from a connection's bytes, one after another (RFC 9112): the request line, the header
/// fields, and a body framed by `Content-Length` or chunked. Pure: the owner appends what it reads and asks for
/// the next request; pipelined requests wait in the buffer for their turn.
///
/// What a request may not do is refused before it is read further: a head past `maxHeadBytes` (431), a body
/// past `maxBodyBytes` (413, told by `Content-Length` before the body comes, or counted while chunks come),
/// both `Content-Length` and `Transfer-Encoding` or two lengths (400: a request another reader could frame
/// differently is never guessed at), obsolete line folding, names that are not tokens, bytes outside ASCII in
/// the target. After a failure the parser reads nothing more: the owner answers it and closes.
package struct HTTPRequestParser: Sendable {
    /// What the next call to `next` found.
    package enum Event: Sendable, Equatable {
        /// A whole request.
        case request(HTTPRequest)
        /// The head of a request whose client waits for `100 Continue` before sending its body.
        case expectsContinue
        /// A request that cannot be read; nothing more will be.
        case failure(HTTPWireError)
    }

    private enum Phase: Sendable {
        case head
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkEnd
        case trailers(read: Int)
        case failed
    }

    package let limits: HTTPLimits
    var buffer: [UInt8] = []
    /// Where the unread bytes of `buffer` start.
    var start = 0
    /// How far past `start` the search for the head's end has looked.
    var headScanned = 0
    private var phase = Phase.head
    /// The request whose body is being read.
    private var pending: HTTPRequest?
    private var continueAnnounced = false

    package init(limits: HTTPLimits = HTTPLimits()) { self.limits = limits }

    /// Bytes read and not yet taken by a request.
    package var bufferedBytes: Int { buffer.count - start }

    /// Whether a request has begun and not ended (the input may not end here).
    package var isInsideRequest: Bool {
        switch phase {
        case .head: buffer[start...].contains { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
        case .failed: false
        default: true
        }
    }

    /// Adds bytes read from the connection.
    package mutating func append(_ bytes: some Sequence<UInt8>) {
        guard !isFailed else { return }
        if start > 4096, start * 2 > buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    private var isFailed: Bool {
        if case .failed = phase { return true }
        return false
    }

    /// The input ended: the failure when it ended inside a request, else nil.
    package mutating func finish() -> HTTPWireError? {
        guard isInsideRequest else { return nil }
        phase = .failed
        return .incomplete()
    }

    /// The next request, `100 Continue` announcement or failure; nil when more bytes are needed.
    package mutating func next() -> Event? {
        do throws(HTTPWireError) {
            while true {
                switch phase {
                case .failed: return nil
                case .head:
                    guard let request = try readHead() else { return nil }
                    if let event = try beginBody(request) { return event }
                case .fixedBody(let remaining):
                    guard bufferedBytes >= remaining else { return announceContinue() }
                    pending?.body.append(contentsOf: buffer[start..<start + remaining])
                    start += remaining
                    return finishRequest()
                case .chunkSize:
                    guard
                        let line = try readLine(
                            limit: limits.maxChunkLineBytes,
                            tooLong: .badChunk(
                                "A chunk-size line is longer than \(limits.maxChunkLineBytes) bytes."))
                    else { return announceContinue() }
                    let size = try chunkSize(line)
                    phase = size == 0 ? .trailers(read: 0) : .chunkData(remaining: size)
                case .chunkData(let remaining):
                    let count = min(remaining, bufferedBytes)
                    guard count > 0 else { return nil }
                    pending?.body.append(contentsOf: buffer[start..<start + count])
                    start += count
                    phase = count == remaining ? .chunkEnd : .chunkData(remaining: remaining - count)
                case .chunkEnd:
                    guard
                        let line = try readLine(limit: 2, tooLong: .badChunk("A chunk's data is longer than its size."))
                    else { return nil }
                    guard line.isEmpty else { throw .badChunk("A chunk's data is longer than its size.") }
                    phase = .chunkSize
                case .trailers(let read):
                    let limit = limits.maxHeadBytes - read
                    guard let line = try readLine(limit: limit, tooLong: .headTooLarge(limit: limits.maxHeadBytes))
                    else { return nil }
                    if line.isEmpty { return finishRequest() }
                    phase = .trailers(read: read + line.count + 2)
                }
            }
        } catch {
            phase = .failed
            pending = nil
            return .failure(error)
        }
    }

    private mutating func announceContinue() -> Event? {
        guard !continueAnnounced, pending?.expectsContinue == true else { return nil }
        continueAnnounced = true
        return .expectsContinue
    }

    private mutating func finishRequest() -> Event? {
        let request = pending
        pending = nil
        phase = .head
        continueAnnounced = false
        return request.map(Event.request)
    }

    /// Sets up the body's framing for `request`; returns the request at once when it has no body.
    private mutating func beginBody(_ request: HTTPRequest) throws(HTTPWireError) -> Event? {
        pending = request
        let codings = request.headers.tokens("Transfer-Encoding")
        let lengths = request.headers.values("Content-Length").flatMap {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        if !request.headers.values("Transfer-Encoding").isEmpty {
            guard lengths.isEmpty else {
                throw .ambiguousLength("A request may not carry both Content-Length and Transfer-Encoding.")
            }
            guard request.minorVersion >= 1 else {
                throw .ambiguousLength("An HTTP/1.0 request may not use Transfer-Encoding.")
            }
            guard codings.last == "chunked" else {
                throw codings.contains("chunked")
                    ? .ambiguousLength("chunked must be the last transfer coding.") : .unsupportedTransferCoding()
            }
            guard codings == ["chunked"] else { throw .unsupportedTransferCoding() }
            phase = .chunkSize
            return nil
        }
        guard lengths.count <= 1 else { throw .ambiguousLength("A request may carry only one Content-Length.") }
        guard let text = lengths.first else { return finishRequest() }
        let digits = text.trimmingHTTPSpace
        guard !digits.isEmpty, digits.count <= 18, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let length = Int(digits)
        else { throw .badContentLength() }
        guard length <= limits.maxBodyBytes else { throw .bodyTooLarge(limit: limits.maxBodyBytes) }
        guard length > 0 else { return finishRequest() }
        phase = .fixedBody(remaining: length)
        return nil
    }

    /// The size of a chunk from its line (hex digits, then maybe extensions), checked against the body's bound.
    private func chunkSize(_ line: ArraySlice<UInt8>) throws(HTTPWireError) -> Int {
        let digits = line.prefix { HTTPTarget.hexValue($0) != nil }
        guard !digits.isEmpty else { throw .badChunk("A chunk-size line does not start with a hex number.") }
        let rest = line.dropFirst(digits.count).drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard rest.isEmpty || rest.first == UInt8(ascii: ";") else {
            throw .badChunk("A chunk size is followed by something other than an extension.")
        }
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        let already = pending?.body.count ?? 0
        guard significant.count <= 8 else { throw .bodyTooLarge(limit: limits.maxBodyBytes) }
        let size = significant.reduce(0) { $0 << 4 | Int(HTTPTarget.hexValue($1) ?? 0) }
        guard already + size <= limits.maxBodyBytes else { throw .bodyTooLarge(limit: limits.maxBodyBytes) }
        return size
    }

    /// The next line (without its CRLF or LF), or nil when it has not ended yet.
    ///
    /// - Throws: `tooLong` when `limit` bytes pass without an end of line; `malformedHeader` for a CR that does not
    ///   end the line.
    mutating func readLine(limit: Int, tooLong: HTTPWireError) throws(HTTPWireError) -> ArraySlice<UInt8>? {
        let searchEnd = min(buffer.count, start + limit + 2)
        guard let newline = buffer[start..<searchEnd].firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.count - start > limit + 1 { throw tooLong }
            return nil
        }
        var line = buffer[start..<newline]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        guard line.count <= limit else { throw tooLong }
        guard !line.contains(UInt8(ascii: "\r")) else { throw .malformedHeader("A line holds a bare carriage return.") }
        start = newline + 1
        return line
    }
}
