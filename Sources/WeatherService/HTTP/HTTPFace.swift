import WeatherEngine
import WeatherWire

/// The routes of weatherd's HTTP listener: what each answers, and who may ask (`HTTPAccess`).
///
/// `places` answers `GET /` and `GET /{place}` (wttr.in's grammar and the dashboard), given by the shell that has
/// the formatters; `GET /?code=…` trades a `weatherd open` code for a browser session.
package struct HTTPFace: Sendable {
    /// What answers `GET /` and `GET /{place}`, told whether the request may see what is private; nil when no
    /// such face is given (404).
    package typealias PlaceAnswer = @Sendable (HTTPRequest, HTTPTarget, _ authorized: Bool) async -> HTTPResponse

    let engine: Engine
    let access: HTTPAccess
    let places: PlaceAnswer?
    let api: APIFace
    let mcp: MCPOverHTTP

    package init(engine: Engine, access: HTTPAccess, places: PlaceAnswer? = nil) {
        self.engine = engine
        self.access = access
        self.places = places
        api = APIFace(methods: HTTPMethods(engine: engine), events: EventStream(log: engine, clock: engine.clock))
        mcp = MCPOverHTTP(engine: engine)
    }

    /// The routes and what they give, for `/:help`.
    package static let routes: [(route: String, meaning: String)] =
        [
            ("GET /", "the dashboard, for a browser with a session (weatherd open) or the token"),
            ("GET /metrics", "the Prometheus exposition (weatherd metrics; needs the token unless --metrics-public)"),
            ("GET /{place}", "wttr.in's answer for a place: Berlin, S%C3%A3o%20Paulo, 48.85,2.35"),
            ("GET /{place}?format=1..4 or %-codes", "one line, as weatherd now --format"),
            ("?m ?M ?u", "metric units (wind in m/s for both), or USCS"),
            ("GET / (not a browser)", "wttr.in's answer for the current location (needs the token)"),
            ("GET /:help", "this page"),
        ] + APIRoute.all.map { ($0.written, $0.meaning) } + [
            ("GET /v1/events", "the log's events, live (Server-Sent Events)")
        ]

    /// The answer to `request`.
    package func answer(_ request: HTTPRequest, _ target: HTTPTarget) async -> HTTPResponse {
        if let refusal = access.checkHost(request) { return refusal }
        let authorized = access.admits(request, passes: engine.browserPasses)
        if access.allowRemote, !authorized { return Self.unauthorized() }
        switch target.segments {
        case [] where target.query("code") != nil:
            return openSession(request, code: target.query("code") ?? "")
        case ["metrics"]:
            guard request.method == "GET" || request.method == "HEAD" else { return Self.methodNotAllowed("GET, HEAD") }
            guard authorized || access.metricsPublic else { return Self.unauthorized() }
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

    /// `GET /?code=…`: a code `weatherd open` printed, traded once for a session cookie and a redirect to `/`
    /// (so the code leaves the address bar and the history); a spent, unknown or expired code is a 403.
    private func openSession(_ request: HTTPRequest, code: String) -> HTTPResponse {
        guard request.method == "GET" else { return Self.methodNotAllowed("GET") }
        guard let session = engine.browserPasses.redeem(code, now: engine.clock.now) else {
            return HTTPResponse(
                .forbidden,
                text: "This link was used already or has expired (a link works once, within "
                    + "\(BrowserPasses.codeLifetime.components.seconds) s); run `weatherd open` for a new one.\n")
        }
        var response = HTTPResponse(.seeOther, text: "Opened; go on to /.\n")
        response.headers.add("Location", "/")
        response.headers.add("Set-Cookie", HTTPAccess.sessionCookie(session))
        response.headers.add("Cache-Control", "no-store")
        return response
    }
}
