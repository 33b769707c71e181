import WeatherEngine
import WeatherWire

/// The routes of weatherd's HTTP listener: what each answers, and who may ask.
///
/// - Every request's `Host` must name the loopback (`localhost`, `127.x.x.x`, `[::1]`, with any port) unless
///   `--http-allow-remote`: a page on another site that rebinds its name to 127.0.0.1 is refused (DNS rebinding).
/// - With `--http-allow-remote` every route needs the token (`Authorization: Bearer`, `HTTPToken`).
/// - `places` answers `GET /{place}` (wttr.in's grammar), given by the shell that has the formatter.
package struct HTTPFace: Sendable {
    /// What answers `GET /{place}`, told whether the request carries the token; nil when no such face is given
    /// (404).
    package typealias PlaceAnswer = @Sendable (HTTPRequest, HTTPTarget, _ authorized: Bool) async -> HTTPResponse

    let engine: Engine
    let token: HTTPToken
    let allowRemote: Bool
    let places: PlaceAnswer?
    let api: APIFace
    let mcp: MCPOverHTTP

    package init(engine: Engine, token: HTTPToken, allowRemote: Bool, places: PlaceAnswer? = nil) {
        self.engine = engine
        self.token = token
        self.allowRemote = allowRemote
        self.places = places
        api = APIFace(methods: HTTPMethods(engine: engine), events: EventStream(log: engine, clock: engine.clock))
        mcp = MCPOverHTTP(engine: engine)
    }

    /// The routes and what they give, for `/:help`.
    package static let routes: [(route: String, meaning: String)] =
        [
            ("GET /metrics", "the Prometheus exposition (weatherd metrics)"),
            ("GET /{place}", "wttr.in's answer for a place: Berlin, S%C3%A3o%20Paulo, 48.85,2.35"),
            ("GET /{place}?format=1..4 or %-codes", "one line, as weatherd now --format"),
            ("?m ?M ?u", "metric units (wind in m/s for both), or USCS"),
            ("GET /", "the same for the current location (needs the token)"),
            ("GET /:help", "this page"),
        ] + APIRoute.all.map { ($0.written, $0.meaning) } + [
            ("GET /v1/events", "the log's events, live (Server-Sent Events)")
        ]

    /// The answer to `request`.
    package func answer(_ request: HTTPRequest, _ target: HTTPTarget) async -> HTTPResponse {
        if !allowRemote, let refusal = Self.checkHost(request) { return refusal }
        let authorized = token.admits(authorization: request.headers["Authorization"])
        if allowRemote, !authorized { return Self.unauthorized() }
        switch target.segments {
        case ["metrics"]:
            guard request.method == "GET" || request.method == "HEAD" else { return Self.methodNotAllowed("GET, HEAD") }
            let text = MetricsText.render(await engine.metrics())
            return HTTPResponse(.ok, text: text, contentType: Exposition.contentType)
        case [":help"]:
            guard request.method == "GET" || request.method == "HEAD" else { return Self.methodNotAllowed("GET, HEAD") }
            return HTTPResponse(.ok, text: Self.help)
        case ["mcp"]:
            guard authorized else { return APIFace.unauthorized() }
            return await mcp.answer(request)
        case let segments where segments.first == "v1":
            return await api.answer(request, target, authorized: authorized)
        case let segments where segments.count <= 1 && places != nil:
            guard request.method == "GET" || request.method == "HEAD" else { return Self.methodNotAllowed("GET, HEAD") }
            return await places?(request, target, authorized) ?? Self.notFound()
        default:
            return Self.notFound()
        }
    }

    static var help: String {
        let width = routes.map(\.route.count).max() ?? 0
        return "weatherd over HTTP\n\n"
            + routes.map { $0.route.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.meaning }
            .joined(separator: "\n") + "\n"
    }

    package static func notFound() -> HTTPResponse {
        HTTPResponse(.notFound, text: "weatherd has no such route; GET /:help lists them.\n")
    }

    static func methodNotAllowed(_ allow: String) -> HTTPResponse {
        var response = HTTPResponse(.methodNotAllowed, text: "This route answers only \(allow).\n")
        response.headers.add("Allow", allow)
        return response
    }

    package static func unauthorized() -> HTTPResponse {
        var response = HTTPResponse(
            .unauthorized,
            text: "This needs the token in the data dir's http-token file: Authorization: Bearer TOKEN.\n")
        response.headers.add("WWW-Authenticate", "Bearer")
        return response
    }

    /// 403 for a `Host` that is not a loopback name (the name itself is not echoed).
    static func checkHost(_ request: HTTPRequest) -> HTTPResponse? {
        guard let host = request.headers["Host"] else { return nil }
        var name = Substring(host.lowercased())
        if name.hasPrefix("[") {
            name = name.prefix { $0 != "]" }.dropFirst()
        } else if let colon = name.firstIndex(of: ":") {
            name = name[..<colon]
        }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        let isLoopback =
            name == "localhost" || name == "::1"
            || (octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil })
        guard !isLoopback else { return nil }
        return HTTPResponse(
            .forbidden,
            text: "The Host header does not name this machine's loopback; weatherd answers only localhost, "
                + "127.0.0.1 and [::1] (add --http-allow-remote to serve others).\n")
    }
}
