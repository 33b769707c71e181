/// The head of an HTTP/1.x request as the metrics endpoint reads it: the request line and the headers up to
/// the blank line, within a size cap. Pure: given the bytes read so far, it says whether the head is complete
/// and what it asks for.
package enum HTTPRequestHead: Equatable, Sendable {
    /// The blank line has not come yet, and the cap is not reached.
    case incomplete
    /// A well-formed request line: the method, the path (without its query) and the version.
    case request(method: String, path: String, version: String)
    /// The request line is not `METHOD SP TARGET SP HTTP/1.x`.
    case malformed
    /// The head passes the cap without ending.
    case tooLarge

    /// The largest request head read: 8 KiB, as common servers allow.
    package static let maxBytes = 8192

    /// What `bytes` (everything read so far) holds.
    package static func read(_ bytes: [UInt8], maxBytes: Int = maxBytes) -> HTTPRequestHead {
        guard let end = headEnd(bytes) else { return bytes.count >= maxBytes ? .tooLarge : .incomplete }
        guard end <= maxBytes else { return .tooLarge }
        let lineEnd = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? end
        var line = bytes[..<lineEnd]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, line.allSatisfy({ $0 > 0x20 && $0 < 0x7F || $0 == 0x20 }) else { return .malformed }
        let method = String(decoding: parts[0], as: UTF8.self)
        let target = String(decoding: parts[1], as: UTF8.self)
        let version = String(decoding: parts[2], as: UTF8.self)
        guard !method.isEmpty, method.utf8.allSatisfy({ (0x41...0x5A).contains($0) }), target.hasPrefix("/"),
            version == "HTTP/1.1" || version == "HTTP/1.0"
        else { return .malformed }
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
        return .request(method: method, path: path ?? target, version: version)
    }

    /// The offset just past the blank line that ends the head (`\r\n\r\n`, or `\n\n` from a lax client).
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { return index + 2 }
                if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\r"),
                    bytes[index + 2] == UInt8(ascii: "\n")
                {
                    return index + 3
                }
            }
            index += 1
        }
        return nil
    }
}
