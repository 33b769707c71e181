import Foundation
import Synchronization
import Testing
import WeatherTesting

@testable import Providers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The time limits are hang guards (a call that never returns), far past the pace of a loaded machine.
@Suite("URLSession transport")
struct URLSessionTransportTests {
    @Test("a refused connection is offline, and the detail holds no part of the URL", .timeLimit(.minutes(5)))
    func refused() async throws {
        let transport = HTTPTransport.live()
        do {
            let response = try await transport.get(HTTPRequest(url: "http://127.0.0.1:1/data/2.5/weather?appid=SECRET"))
            Issue.record("port 1 answered HTTP \(response.status)")
        } catch {
            #expect(error.kind == .offline)
            #expect(error.detail == "connection refused")
            #expect(!error.detail.contains("SECRET"))
            #expect(!error.detail.contains("127.0.0.1"))
            #expect(!error.detail.contains("?"))
        }
    }

    @Test("calls cancelled while their answers come in all return (URLSession.data(for:) could deadlock there)")
    func cancelledWhileAnswered() async throws {
        // A session of its own, with a connection per call: a hang takes its work queue with it.
        let calls = 200
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = calls
        let transport = HTTPTransport.live(configuration: configuration)
        for _ in 0..<3 {
            let returned = try await Self.cancelWhileAnswered(calls: calls, transport: transport)
            try #require(
                returned == calls, "a cancel and an answer deadlocked: \(calls - returned) calls never returned")
        }
    }

    /// Makes `calls` calls, all answered 1 s after they arrive, and cancels them one by one while the answers come
    /// in; returns how many calls returned (all, unless some never will).
    static func cancelWhileAnswered(calls: Int, transport: HTTPTransport) async throws -> Int {
        let server = try LocalHTTPServer()
        let delay = Duration.seconds(1)
        server.route("/v1/forecast", .init(body: Array("{}".utf8), delay: delay))
        let returned = Returned()
        let start = ContinuousClock.now
        let tasks = (0..<calls).map { _ in
            Task {
                _ = try? await transport.get(HTTPRequest(url: server.baseURL + "/v1/forecast"))
                returned.count.add(1, ordering: .relaxed)
            }
        }
        while server.requests.count < calls, ContinuousClock.now < start + delay {
            try await Task.sleep(for: .milliseconds(1))
        }
        // The answers come between `start + delay` and `sent + delay`: spread the cancels over that time, from a
        // thread of their own (a cancel that deadlocks with URLSession's queue blocks that thread, not the test).
        let sent = ContinuousClock.now
        let canceller = Thread {
            let step = (sent - start + .milliseconds(10)) / calls
            for (index, task) in tasks.enumerated() {
                let at = start + delay + step * index
                let wait = at - ContinuousClock.now
                if wait > .zero {
                    Thread.sleep(
                        forTimeInterval: Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18)
                }
                task.cancel()
            }
        }
        canceller.start()
        // Only a hang guard: a deadlocked cancel never returns.
        _ = await eventually { returned.count.load(ordering: .relaxed) >= calls }
        return returned.count.load(ordering: .relaxed)
    }

    /// The limit of the body tests: 64 KiB.
    static let limit = 64 << 10

    /// A transport with the small limit.
    static func limited() -> HTTPTransport { HTTPTransport.live(configuration: .ephemeral, maxBodyBytes: limit) }

    /// The error a call fails with; nil, and an issue, when it succeeds.
    static func failure(of transport: HTTPTransport, _ url: String) async -> TransportError? {
        do {
            let response = try await transport.get(HTTPRequest(url: url))
            Issue.record("HTTP \(response.status) with \(response.body.count) bytes was accepted")
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "a body of exactly the limit is read whole, with a Content-Length or chunked",
        .timeLimit(.minutes(5)), arguments: [LocalHTTPServer.Response.Framing.length, .chunked])
    func atTheLimit(framing: LocalHTTPServer.Response.Framing) async throws {
        let server = try LocalHTTPServer()
        let body = (0..<Self.limit).map { UInt8(truncatingIfNeeded: $0 % 251) }
        server.route("/v1/forecast", .init(body: body, framing: framing))
        let response = try await Self.limited().get(HTTPRequest(url: server.baseURL + "/v1/forecast"))
        #expect(response.status == 200)
        #expect(response.body == body)
    }

    @Test(
        "a body one byte past the limit fails as too large, with a Content-Length or chunked",
        .timeLimit(.minutes(5)), arguments: [LocalHTTPServer.Response.Framing.length, .chunked])
    func pastTheLimit(framing: LocalHTTPServer.Response.Framing) async throws {
        let server = try LocalHTTPServer()
        server.route(
            "/v1/forecast", .init(body: Array(repeating: UInt8(ascii: "x"), count: Self.limit + 1), framing: framing))
        let error = await Self.failure(of: Self.limited(), server.baseURL + "/v1/forecast")
        #expect(error?.kind == .tooLarge)
        #expect(error?.limit == Self.limit)
    }

    @Test(
        "a Content-Length past the limit fails as too large, and the detail names the limit, not the URL",
        .timeLimit(.minutes(5)))
    func announcedTooLarge() async throws {
        let server = try LocalHTTPServer()
        server.route("/data/2.5/weather", .init(body: Array(repeating: UInt8(ascii: "x"), count: 1 << 20)))
        let error = try #require(
            await Self.failure(of: Self.limited(), server.baseURL + "/data/2.5/weather?appid=SECRET"))
        #expect(error.kind == .tooLarge)
        #expect(error.detail == "the body passed the 64 KiB limit")
        #expect(!error.detail.contains("SECRET"))
        #expect(!error.detail.contains("127.0.0.1"))
    }

    @Test(
        "a body without end fails as too large, and no more of it is read: the server sees its client go away",
        .timeLimit(.minutes(5)))
    func endless() async throws {
        let server = try LocalHTTPServer()
        server.route(
            "/v1/forecast", .init(body: Array(repeating: UInt8(ascii: "x"), count: 4 << 10), framing: .endless))
        // Returning at all shows the call gave up at the limit: one that read the whole body would never return.
        let error = try #require(await Self.failure(of: Self.limited(), server.baseURL + "/v1/forecast"))
        #expect(error.kind == .tooLarge)
        #expect(error.detail.contains("64 KiB"))
        // And the task was cancelled, not left reading in the background: its connection closes.
        #expect(await eventually { server.abandonedAnswers == 1 }, "still read after \(server.bytesSent) bytes")
    }

    @Test(
        "URLError codes map to time-out or offline",
        arguments: [
            (URLError.Code.timedOut, TransportError.Kind.timeout), (.cannotConnectToHost, .offline),
            (.notConnectedToInternet, .offline), (.cannotFindHost, .offline), (.dnsLookupFailed, .offline),
            (.networkConnectionLost, .offline), (.secureConnectionFailed, .offline), (.badServerResponse, .offline),
        ])
    func mapping(code: URLError.Code, kind: TransportError.Kind) throws {
        let failingURL = try #require(URL(string: "https://api.openweathermap.org/data/2.5/weather?appid=SECRET"))
        let error = URLError(
            code,
            userInfo: [
                NSURLErrorFailingURLErrorKey: failingURL,
                NSLocalizedDescriptionKey: "Could not connect to \(failingURL.absoluteString)",
            ])
        let mapped = HTTPTransport.transportError(for: error)
        #expect(mapped.kind == kind)
        #expect(!mapped.detail.contains("SECRET"))
        #expect(!mapped.detail.contains("appid"))
        #expect(!mapped.detail.isEmpty)
    }
}

/// How many calls have returned.
private final class Returned: Sendable {
    let count = Atomic(0)
}
