import Foundation
import Synchronization
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A keep-alive HTTP/1.1 client on 127.0.0.1 for tests, written apart from the server's code: it sends bytes
/// (any bytes: a test sends malformed requests) and reads answers one at a time, framed by `Content-Length`,
/// chunked, or by the connection's end. Its blocking calls run on threads of their own.
package final class HTTPTestClient: Sendable {
    /// One answer: the status, the headers (names lowercased), the body's bytes.
    package struct Answer: Sendable {
        package var status: Int
        package var headers: [String: String]
        package var body: [UInt8]
        package var text: String { String(decoding: body, as: UTF8.self) }
    }

    private let fd: Int32
    /// Bytes read and not yet taken by an answer.
    private let pending = Mutex<[UInt8]>([])

    /// Connects to `127.0.0.1:port`; `receiveBuffer` makes the socket's receive buffer small (a client that
    /// does not read fills it soon).
    package init(port: Int, receiveBuffer: Int32? = nil) throws {
        fd = try connectToLoopback(port: port, receiveBuffer: receiveBuffer)
    }

    deinit { close(fd) }

    /// Sends `text`'s bytes.
    package func send(_ text: String) async { await send(Array(text.utf8)) }

    /// Sends `bytes`.
    package func send(_ bytes: [UInt8]) async {
        let fd = fd
        _ = await onOwnThread(named: "http-test-send") { Descriptor.writeAll(fd, bytes, socket: true) }
    }

    /// `GET target` with `Host: 127.0.0.1` (unless `headers` give a `Host` of their own) and the extra header lines
    /// given.
    package static func get(_ target: String, _ headers: [String] = [], method: String = "GET") -> String {
        let host = headers.contains { $0.lowercased().hasPrefix("host:") } ? "" : "Host: 127.0.0.1\r\n"
        return "\(method) \(target) HTTP/1.1\r\n" + host + headers.map { $0 + "\r\n" }.joined() + "\r\n"
    }

    /// Reads the next answer; nil when the connection ends first. `forHEAD`: the answer has no body whatever
    /// its length says.
    package func answer(forHEAD: Bool = false) async -> Answer? {
        guard var answer = await head() else { return nil }
        let (status, headers) = (answer.status, answer.headers)
        if forHEAD || status == 204 || status == 304 || (100..<200).contains(status) { return answer }
        if let length = headers["content-length"].flatMap(Int.init) {
            guard await readUntil({ $0.count >= length ? length : nil }) != nil else { return nil }
            answer.body = take(length)
        } else if headers["transfer-encoding"]?.lowercased() == "chunked" {
            while true {
                guard let chunk = await chunk() else { return nil }
                if chunk.isEmpty { break }
                answer.body += chunk
            }
        } else {
            _ = await readUntil { _ in nil }
            answer.body = take(pending.withLock { $0.count })
        }
        return answer
    }

    /// Reads an answer's head: the status and the headers, and no body (a stream's is read by `streamed`).
    package func head() async -> Answer? {
        guard let headEnd = await readUntil({ Self.find([13, 10, 13, 10], in: $0).map { $0 + 4 } }) else { return nil }
        let headBytes = take(headEnd)
        let lines = String(decoding: headBytes, as: UTF8.self).split(separator: "\r\n").map(String.init)
        let status = lines.first?.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Answer(status: status, headers: headers, body: [])
    }

    /// Reads a chunked body's next chunk: its bytes, empty for the last chunk, nil when the connection ends first.
    package func chunk() async -> [UInt8]? {
        guard let lineEnd = await readUntil({ Self.find([13, 10], in: $0).map { $0 + 2 } }) else { return nil }
        let line = String(decoding: take(lineEnd).dropLast(2), as: UTF8.self)
        guard let size = Int(line.split(separator: ";").first ?? "", radix: 16) else { return nil }
        guard await readUntil({ $0.count >= size + 2 ? size + 2 : nil }) != nil else { return nil }
        return Array(take(size + 2).dropLast(2))
    }

    /// Reads a streamed (chunked) body's chunks until `done` holds for its text read so far by this call; that
    /// text, or what came before the body or the connection ended.
    package func streamed(until done: (String) -> Bool) async -> String {
        var text: [UInt8] = []
        while !done(String(decoding: text, as: UTF8.self)), let chunk = await chunk(), !chunk.isEmpty {
            text += chunk
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The answers' bytes read until the server closes (for a test that counts what came).
    package func readToEnd() async -> [UInt8] {
        _ = await readUntil { _ in nil }
        return take(pending.withLock { $0.count })
    }

    private func take(_ count: Int) -> [UInt8] {
        pending.withLock { pending in
            defer { pending.removeFirst(count) }
            return Array(pending.prefix(count))
        }
    }

    /// Reads until `done` finds what it wants in the pending bytes (its answer), or the connection ends (nil).
    private func readUntil(_ done: @escaping @Sendable ([UInt8]) -> Int?) async -> Int? {
        if let found = pending.withLock({ done($0) }) { return found }
        let fd = fd
        return await onOwnThread(named: "http-test-read") { [self] () -> Int? in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
                if count <= 0 { return nil }
                if let found = self.pending.withLock({ pending -> Int? in
                    pending += buffer[..<count]
                    return done(pending)
                }) {
                    return found
                }
            }
        }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for index in 0...(bytes.count - needle.count) where bytes[index..<index + needle.count].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
