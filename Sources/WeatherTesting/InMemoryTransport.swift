import Providers
import Synchronization
import WeatherRuntime

/// An HTTP transport that answers from recorded responses, by URL path, and counts every request.
///
/// Routes are matched on the path (the part before `?`); each route holds a queue of replies, the
/// last of which repeats. A reply is a response, a transport failure (offline, timeout) or a
/// response held until the test releases it, so single-flight, deadlines, cancellation and retries can be
/// tested without a network and without real time.
package final class InMemoryTransport: Sendable {
    /// One scripted reply.
    package enum Reply: Sendable {
        case response(HTTPResponse)
        case failure(TransportError)
        /// The reply, once the test calls `release()` (cancellation is ignored, as URLSession on Linux does).
        indirect case held(Reply)
    }

    private struct State {
        var routes: [String: [Reply]] = [:]
        var requests: [String] = []
        var received: [HTTPRequest] = []
    }

    private let state = Mutex(State())
    private let arrivals = WaitQueue<Void>()
    private let gate = Latch()

    package init() {}

    /// Lets every held reply, and every later one, go on.
    package func release() { gate.open() }

    /// Returns once at least `count` requests have arrived (nil from the hang guard: they never came).
    @discardableResult
    package func requests(atLeast count: Int) async -> Bool {
        await withHangGuard { [self] in
            while requests.count < count {
                guard await arrivals.wait(unless: { self.requests.count >= count ? () : nil }) != nil else {
                    return nil
                }
            }
            return true
        } ?? false
    }

    /// Sets the replies for requests whose path ends with `suffix` (e.g. `/v1/forecast`) and, when
    /// `query` is given, whose query contains it (e.g. `current=`).
    package func route(_ suffix: String, query: String = "", _ replies: Reply...) {
        route(suffix, query: query, replies: replies)
    }

    /// Answers requests whose path ends with `suffix` with `replies` in turn.
    package func route(_ suffix: String, query: String = "", replies: [Reply]) {
        state.withLock { $0.routes[RouteKey.make(suffix, query)] = replies }
    }

    /// A 200 JSON response.
    package static func ok(_ body: [UInt8], headers: [String: String] = [:]) -> Reply {
        .response(HTTPResponse(status: 200, headers: headers, body: body))
    }

    /// A response with a status.
    package static func status(_ status: Int, _ body: String = "{}", headers: [String: String] = [:]) -> Reply {
        .response(HTTPResponse(status: status, headers: headers, body: Array(body.utf8)))
    }

    /// Every requested URL, in order.
    package var requests: [String] { state.withLock { $0.requests } }

    /// Every request as the transport received it (URL and headers), in order.
    package var received: [HTTPRequest] { state.withLock { $0.received } }

    /// The transport to give the service.
    package var transport: HTTPTransport {
        HTTPTransport { [self] request throws(TransportError) in
            let reply = state.withLock { state -> Reply in
                state.requests.append(request.url)
                state.received.append(request)
                guard let key = RouteKey.match(request.url, among: state.routes.keys),
                    var replies = state.routes[key], let first = replies.first
                else { return .failure(TransportError(.offline, "no route for \(request.url)")) }
                if replies.count > 1 {
                    replies.removeFirst()
                    state.routes[key] = replies
                }
                return first
            }
            arrivals.resumeAll(())
            return try await perform(reply)
        }
    }

    private func perform(_ reply: Reply) async throws(TransportError) -> HTTPResponse {
        switch reply {
        case .response(let response): return response
        case .failure(let error): throw error
        case .held(let next):
            await gate.waitIgnoringCancellation()
            return try await perform(next)
        }
    }
}

/// Routes keyed by path suffix and query fragment, shared by the in-memory transport and the local server.
enum RouteKey {
    static func make(_ suffix: String, _ query: String) -> String { "\(suffix)\u{1}\(query)" }

    /// The most specific route for a URL or request target: the longest suffix, then the longest query fragment.
    static func match(_ target: String, among keys: some Sequence<String>) -> String? {
        let parts = target.split(separator: "?", maxSplits: 1)
        let path = String(parts.first ?? "")
        let query = parts.count > 1 ? String(parts[1]) : ""
        return keys.filter { key in
            let pieces = key.split(separator: "\u{1}", maxSplits: 1, omittingEmptySubsequences: false)
            return path.hasSuffix(pieces[0]) && (pieces[1].isEmpty || query.contains(pieces[1]))
        }.max { $0.count < $1.count }
    }
}
