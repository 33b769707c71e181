extension HTTPRequestParser {
    private static let cr = UInt8(ascii: "\r")
    private static let lf = UInt8(ascii: "\n")

    /// The next request's head, once its blank line has come; nil before.
    mutating func readHead() throws(HTTPWireError) -> HTTPRequest? {
        // A client may send empty lines between requests (RFC 9112 §2.2).
        while start < buffer.count, buffer[start] == Self.cr || buffer[start] == Self.lf {
            start += 1
            headScanned = 0
        }
        guard start < buffer.count else { return nil }
        let firstLineEnd = buffer[start...].prefix(limits.maxRequestLineBytes + 2).firstIndex(of: Self.lf)
        if firstLineEnd == nil, bufferedBytes > limits.maxRequestLineBytes + 1 {
            throw .targetTooLong(limit: limits.maxRequestLineBytes)
        }
        guard let end = headEnd() else {
            if bufferedBytes >= limits.maxHeadBytes { throw .headTooLarge(limit: limits.maxHeadBytes) }
            return nil
        }
        guard end - start <= limits.maxHeadBytes else { throw .headTooLarge(limit: limits.maxHeadBytes) }
        var lines = buffer[start..<end].split(separator: Self.lf, omittingEmptySubsequences: false).map { line in
            line.last == Self.cr ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        start = end
        headScanned = 0
        guard let requestLine = lines.first else { throw .malformedRequestLine("The request line is empty.") }
        guard requestLine.count <= limits.maxRequestLineBytes else {
            throw .targetTooLong(limit: limits.maxRequestLineBytes)
        }
        var request = try Self.requestLine(requestLine)
        let fields = lines.dropFirst()
        guard fields.count <= limits.maxHeaderFields else { throw .tooManyHeaders(limit: limits.maxHeaderFields) }
        for line in fields {
            let (name, value) = try Self.field(line)
            request.headers.add(name, value)
        }
        let hosts = request.headers.values("Host")
        guard hosts.count == 1 || (request.minorVersion == 0 && hosts.isEmpty) else { throw .missingHost() }
        return request
    }

    /// The offset just past the blank line that ends the head (CRLF CRLF, or bare LFs), searching on from where
    /// the last search stopped.
    private mutating func headEnd() -> Int? {
        var index = start + max(0, headScanned - 3)
        let limit = min(buffer.count, start + limits.maxHeadBytes + 4)
        while index < limit {
            if buffer[index] == Self.lf {
                if index + 1 < buffer.count, buffer[index + 1] == Self.lf { return index + 2 }
                if index + 2 < buffer.count, buffer[index + 1] == Self.cr, buffer[index + 2] == Self.lf {
                    return index + 3
                }
            }
            index += 1
        }
        headScanned = index - start
        return nil
    }

    /// `METHOD SP TARGET SP HTTP/1.x`.
    private static func requestLine(_ line: ArraySlice<UInt8>) throws(HTTPWireError) -> HTTPRequest {
        guard !line.contains(cr) else { throw .malformedRequestLine("The request line holds a bare carriage return.") }
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else {
            throw .malformedRequestLine("The request line must be a method, a target and a version, one space apart.")
        }
        guard parts[0].allSatisfy(isTokenByte) else {
            throw .malformedRequestLine("The method is not a token.")
        }
        guard parts[1].allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .badTarget("The request target holds bytes outside printable ASCII; percent-encode them.")
        }
        let version = Array(parts[2])
        let prefix = Array("HTTP/".utf8)
        guard version.count == 8, version.starts(with: prefix), version[6] == UInt8(ascii: "."),
            (0x30...0x39).contains(version[5]), (0x30...0x39).contains(version[7])
        else { throw .malformedRequestLine("The version must be HTTP/1.1 or HTTP/1.0.") }
        guard version[5] == UInt8(ascii: "1") else { throw .unsupportedVersion() }
        return HTTPRequest(
            method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: parts[1], as: UTF8.self),
            minorVersion: version[7] == UInt8(ascii: "0") ? 0 : 1)
    }

    /// `NAME ":" OWS VALUE OWS`.
    private static func field(_ line: ArraySlice<UInt8>) throws(HTTPWireError) -> (String, String) {
        guard let first = line.first, first != UInt8(ascii: " "), first != UInt8(ascii: "\t") else {
            throw .obsoleteLineFolding()
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            throw .malformedHeader("A header line has no colon.")
        }
        let name = line[..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
            throw .malformedHeader("A header name holds a character that is not allowed in a token.")
        }
        let value = line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }.reversed()
            .drop { $0 == 0x20 || $0 == 0x09 }.reversed()
        guard value.allSatisfy({ $0 >= 0x20 && $0 != 0x7F || $0 == 0x09 }) else {
            throw .malformedHeader("A header value holds a control character.")
        }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// RFC 9110's `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
