import Foundation
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A client connection to the metrics endpoint on 127.0.0.1, as a scraper makes one: send bytes (all at once, in
/// pieces, or none), then read the answer to its end. Its blocking calls run on threads of their own.
package final class ScrapeConnection: Sendable {
    /// What came back: the status line's code, the headers (names lowercased) and the body.
    package struct Answer: Sendable {
        package var status: Int
        package var headers: [String: String]
        package var body: String
    }

    private let fd: Int32

    /// Connects to `127.0.0.1:port`.
    package init(port: Int) throws {
        fd = try connectToLoopback(port: port)
    }

    deinit { close(fd) }

    /// Sends `text` (its bytes may be anything: a test sends malformed requests).
    package func send(_ bytes: [UInt8]) async {
        let fd = fd
        _ = await onOwnThread(named: "scrape-send") {
            Descriptor.writeAll(fd, bytes, socket: true)
        }
    }

    /// Ends the sending side (the server reads the end of the request).
    package func endSending() { _ = shutdown(fd, Int32(SHUT_WR)) }

    /// Reads until the server closes the connection, and takes the answer apart.
    package func answer() async -> Answer {
        let fd = fd
        let bytes = await onOwnThread(named: "scrape-read") { () -> [UInt8] in
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = buffer.withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
                if count <= 0 { return bytes }
                bytes += buffer[..<count]
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: "\r\n\r\n", maxSplits: 1, omittingEmptySubsequences: false)
        let head = parts.first.map(String.init) ?? ""
        var lines = head.split(separator: "\r\n").map(String.init)
        let statusLine = lines.isEmpty ? "" : lines.removeFirst()
        let status = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Answer(status: status, headers: headers, body: parts.count > 1 ? String(parts[1]) : "")
    }

    /// Connects, sends `request` and reads the answer: one whole scrape.
    package static func exchange(port: Int, _ request: String) async throws -> Answer {
        let connection = try ScrapeConnection(port: port)
        await connection.send(Array(request.utf8))
        return await connection.answer()
    }

    #if canImport(Glibc)
        private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        private static let sendFlags: Int32 = 0
    #endif

    /// `GET /metrics` as Prometheus sends it, asking to close after the answer (this client reads to the end).
    package static let scrape =
        "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/plain\r\nConnection: close\r\n\r\n"

    /// Prometheus' scrape with the HTTP face's token, as its `authorization.credentials_file` sends it.
    package static func scrape(token: String) -> String {
        "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/plain\r\nAuthorization: Bearer \(token)\r\n"
            + "Connection: close\r\n\r\n"
    }
}
