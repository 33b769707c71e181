import Foundation
import Synchronization
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1, for end-to-end tests: it serves recorded bodies and error
/// statuses by path, and counts what it was asked. One thread accepts; each connection gets a
/// thread, reads one request, answers, and closes.
package final class LocalHTTPServer: Sendable {
    /// A canned answer.
    package struct Response: Sendable {
        /// How the body is framed.
        package enum Framing: Sendable {
            /// With a `Content-Length`.
            case length
            /// Chunked (`Transfer-Encoding: chunked`), without a length.
            case chunked
            /// Chunked, the body again and again until the client goes away: a body without end, one chunk a
            /// millisecond, as a network brings it (a writer in the same process that never pauses outruns
            /// swift-corelibs-foundation, whose cancel then waits until the reads leave its queue a turn).
            case endless
        }

        package var status: Int
        package var headers: [String: String]
        package var body: [UInt8]
        /// How long to wait before answering (cut short by `release()`).
        package var delay: Duration
        /// Answers only once the test calls `release()` (or stops the server): no timer ends the wait.
        package var held: Bool
        package var framing: Framing

        package init(
            status: Int = 200, headers: [String: String] = [:], body: [UInt8], delay: Duration = .zero,
            held: Bool = false, framing: Framing = .length
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.held = held
            self.framing = framing
        }
    }

    private struct State {
        var routes: [String: Response] = [:]
        var requests: [String] = []
        var headers: [[String: String]] = []
        var stopped = false
        var released = false
        var bytesSent = 0
        var abandoned = 0
    }

    /// The port it listens on.
    package let port: Int
    private let fd: Int32
    private let state = Mutex(State())

    /// Binds 127.0.0.1 on a free port and starts accepting.
    package init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RunningWeatherdError("socket: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw RunningWeatherdError("bind/listen: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// `http://127.0.0.1:<port>`
    package var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Serves `response` for requests whose path ends with `suffix` and whose query contains `query`.
    package func route(_ suffix: String, query: String = "", _ response: Response) {
        state.withLock { $0.routes[RouteKey.make(suffix, query)] = response }
    }

    /// Every request line's target (path and query), in arrival order.
    package var requests: [String] { state.withLock { $0.requests } }

    /// Every request's headers (names lower-cased), in the order of `requests`.
    package var requestHeaders: [[String: String]] { state.withLock { $0.headers } }

    /// The bytes written to clients so far, heads and chunk framing included.
    package var bytesSent: Int { state.withLock { $0.bytesSent } }

    /// How many answers were cut short because their client went away (an endless body's always is).
    package var abandonedAnswers: Int { state.withLock { $0.abandoned } }

    /// Returns once at least `count` requests have arrived (false from the hang guard: they never came).
    @discardableResult
    package func requests(atLeast count: Int) async -> Bool {
        await eventually { requests.count >= count }
    }

    /// Answers every request held or delayed by its route now, and later ones without waiting.
    package func release() { state.withLock { $0.released = true } }

    /// Stops accepting, and answers the requests it holds.
    package func stop() {
        let first = state.withLock { state -> Bool in
            defer {
                state.stopped = true
                state.released = true
            }
            return !state.stopped
        }
        if first { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                close(fd)
                return
            }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.containsHeaderEnd, request.count < 65_536 {
            let count = buffer.withUnsafeMutableBytes { read(client, $0.baseAddress!, $0.count) }
            if count <= 0 { return }
            request.append(contentsOf: buffer[..<count])
        }
        let line = String(decoding: request.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count >= 2 else { return }
        let target = String(parts[1])
        var headers: [String: String] = [:]
        let requestHead = String(decoding: request, as: UTF8.self).components(separatedBy: "\r\n\r\n").first ?? ""
        for field in requestHead.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = field.firstIndex(of: ":") else { continue }
            headers[field[..<colon].lowercased()] = field[field.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        let response = state.withLock { state -> Response in
            state.requests.append(target)
            state.headers.append(headers)
            let key = RouteKey.match(target, among: state.routes.keys)
            return key.flatMap { state.routes[$0] } ?? Response(status: 404, body: Array(#"{"error":"no route"}"#.utf8))
        }
        let answerAt = ContinuousClock.now.advanced(by: response.delay)
        while response.held || ContinuousClock.now < answerAt, !state.withLock({ $0.released }) { usleep(10_000) }
        let framing =
            response.framing == .length ? "Content-Length: \(response.body.count)" : "Transfer-Encoding: chunked"
        var head = "HTTP/1.1 \(response.status) Status\r\n\(framing)\r\nConnection: close\r\n"
        head += "Content-Type: application/json\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        switch response.framing {
        case .length:
            guard write(Array(head.utf8) + response.body, to: client) else { return abandoned() }
        case .chunked:
            guard write(Array(head.utf8), to: client) else { return abandoned() }
            // A chunk of at most 64 KiB at a time, as servers stream.
            for start in stride(from: 0, to: response.body.count, by: 65_536) {
                let chunk = Array(response.body[start..<min(start + 65_536, response.body.count)])
                guard writeChunk(chunk, to: client) else { return abandoned() }
            }
            guard write(Array("0\r\n\r\n".utf8), to: client) else { return abandoned() }
        case .endless:
            guard write(Array(head.utf8), to: client) else { return abandoned() }
            while !response.body.isEmpty, !state.withLock({ $0.stopped }) {
                guard writeChunk(response.body, to: client) else { return abandoned() }
                usleep(1000)
            }
        }
    }

    private func abandoned() { state.withLock { $0.abandoned += 1 } }

    /// Writes one chunk of a chunked body.
    private func writeChunk(_ chunk: [UInt8], to client: Int32) -> Bool {
        write(Array((String(chunk.count, radix: 16) + "\r\n").utf8) + chunk + Array("\r\n".utf8), to: client)
    }

    /// Writes all of `bytes`; false when the client went away.
    private func write(_ bytes: [UInt8], to client: Int32) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = send(client, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if written <= 0 { return false }
                offset += written
                state.withLock { $0.bytesSent += written }
            }
            return true
        }
    }
}

extension [UInt8] {
    fileprivate var containsHeaderEnd: Bool {
        guard count >= 4 else { return false }
        for index in 0...(count - 4)
        where self[index] == 13 && self[index + 1] == 10 && self[index + 2] == 13 && self[index + 3] == 10 {
            return true
        }
        return false
    }
}
