import WeatherDomain
import WeatherWire

/// `/v1/…`: the engine's methods as a JSON API (`APIRoute.all`), for Home Assistant, scripts and dashboards.
///
/// - Every route needs the token: favorites, the location and alerts are private, and no other local user may
///   change anything.
/// - A query takes its params from the query string (`APIQuery`); a change (`POST`, `PUT`, `PATCH`, `DELETE`)
///   from a JSON object body (`Content-Type: application/json`) as well, and its `Idempotency-Key` header is its
///   `commandId`: a retried change is applied once. A change whose `Origin` is another site's is refused.
/// - A result is JSON with an `ETag` (`APIAnswer`); an error is a problem (RFC 9457) with JSON-RPC's kind. An
///   unknown route is a 404 problem, a known path asked with another method a 405 with `Allow`.
struct APIFace: Sendable {
    let methods: HTTPMethods
    let events: EventStream

    func answer(_ request: HTTPRequest, _ target: HTTPTarget, authorized: Bool) async -> HTTPResponse {
        guard authorized else { return Self.unauthorized() }
        let segments = target.segments.dropFirst()
        let verb = request.method == "HEAD" ? "GET" : request.method
        if segments.elementsEqual(["events"]) {
            guard verb == "GET" else { return Self.methodNotAllowed(["GET", "HEAD"]) }
            return events.response(request, target)
        }
        var allowed: [String] = []
        for route in APIRoute.all {
            guard let bound = route.bind(segments) else { continue }
            guard route.verb == verb else {
                allowed.append(route.verb)
                continue
            }
            return await call(route, bound, request, target)
        }
        guard !allowed.isEmpty else {
            return APIAnswer.problem(
                .notFound, kind: "no_route", detail: "weatherd's API has no such route; GET /:help lists them.")
        }
        if allowed.contains("GET") { allowed.append("HEAD") }
        return Self.methodNotAllowed(allowed)
    }

    /// 401 as a problem: the token is missing or wrong.
    static func unauthorized() -> HTTPResponse {
        var response = APIAnswer.problem(
            .unauthorized, kind: "token_required",
            detail: "This needs the token in the data dir's http-token file (weatherd http-token): "
                + "Authorization: Bearer TOKEN.")
        response.headers.add("WWW-Authenticate", "Bearer")
        return response
    }

    static func methodNotAllowed(_ allowed: [String]) -> HTTPResponse {
        var response = APIAnswer.problem(
            .methodNotAllowed, kind: "method_not_allowed",
            detail: "This route answers only \(allowed.joined(separator: ", ")).")
        response.headers.add("Allow", allowed.joined(separator: ", "))
        return response
    }

    private func call(_ route: APIRoute, _ bound: [String: String], _ request: HTTPRequest, _ target: HTTPTarget)
        async -> HTTPResponse
    {
        if route.changes, let refusal = Self.checkOrigin(request) { return refusal }
        if !request.body.isEmpty, Self.mediaType(request) != "application/json" {
            return APIAnswer.problem(
                .unsupportedMediaType, kind: "unsupported_media_type",
                detail: "A body must be a JSON object sent as Content-Type: application/json.")
        }
        do throws(RPCError) {
            var params = try APIQuery.params(target)
            for (name, value) in try Self.body(request) {
                guard params[name] == nil else {
                    throw .invalidParams("params.\(name) is given in the query and the body")
                }
                params[name] = value
            }
            for (name, value) in bound {
                guard params[name] == nil else { throw .invalidParams("params.\(name) is given in the path already") }
                params[name] = .string(value)
            }
            let key = request.headers["Idempotency-Key"]
            let result = try await methods.call(route.method, params, commandId: key)
            return APIAnswer.json(result, status: route.method == "favorites/add" ? .created : .ok, for: request)
        } catch {
            return APIAnswer.problem(error)
        }
    }

    /// The members of a request's JSON object body (none for an empty body).
    private static func body(_ request: HTTPRequest) throws(RPCError) -> [String: JSONValue] {
        guard !request.body.isEmpty else { return [:] }
        let value: JSONValue
        do {
            value = try JSONValue.parse(request.body, maxDepth: RPCServer.maxDepth)
        } catch {
            throw RPCServer.error(for: error)
        }
        guard let members = value.objectValue else { throw .invalidParams("the body must be a JSON object") }
        return members
    }

    /// The body's media type, lowercased, without parameters.
    private static func mediaType(_ request: HTTPRequest) -> String? {
        request.headers["Content-Type"]?.split(separator: ";").first.map { $0.trimmingHTTPSpace.lowercased() }
    }

    /// 403 for a change whose `Origin` is not this host (`Host`, scheme aside): a page on another site, or
    /// another port, may not make it. A request without `Origin` (curl, Home Assistant) passes.
    static func checkOrigin(_ request: HTTPRequest) -> HTTPResponse? {
        guard let origin = request.headers["Origin"]?.lowercased() else { return nil }
        let host = request.headers["Host"]?.lowercased()
        let sameHost = ["http://", "https://"].contains { scheme in
            origin.hasPrefix(scheme) && String(origin.dropFirst(scheme.count)) == host
        }
        guard !sameHost else { return nil }
        return APIAnswer.problem(
            .forbidden, kind: "cross_origin",
            detail: "A change is taken only from this host's own pages; the request's Origin is another site's.")
    }
}
