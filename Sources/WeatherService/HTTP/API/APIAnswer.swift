import WeatherDomain
import WeatherWire

/// The answers of the JSON API: a result as `application/json` with an `ETag`, an error as
/// `application/problem+json` (RFC 9457) carrying JSON-RPC's kind and details.
package enum APIAnswer {
    /// `result` as JSON. A `GET`'s carries a strong `ETag` (a digest of its bytes), and a request whose
    /// `If-None-Match` names it is answered 304 with no body.
    package static func json(_ result: JSONValue, status: HTTPStatus = .ok, for request: HTTPRequest) -> HTTPResponse {
        var response = HTTPResponse(
            status, headers: HTTPHeaders([("Content-Type", "application/json")]), body: result.jsonBytes)
        guard request.method == "GET" || request.method == "HEAD" else { return response }
        let tag = "\"" + Digest.fnv1a(response.body) + "\""
        response.headers.add("ETag", tag)
        response.headers.add("Cache-Control", "no-cache")
        guard let wanted = request.headers["If-None-Match"], matches(wanted, tag) else { return response }
        return HTTPResponse(.notModified, headers: HTTPHeaders([("ETag", tag), ("Cache-Control", "no-cache")]))
    }

    /// Whether an `If-None-Match` list names `tag` (weak comparison, RFC 9110 §13.1.2), or is `*`.
    static func matches(_ list: String, _ tag: String) -> Bool {
        list.split(separator: ",").contains { element in
            var candidate = element.trimmingHTTPSpace
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
            return candidate == tag
        }
    }

    /// `error` as a problem: `type` names its kind (`urn:weatherd:error:not_found`), `title` the status,
    /// `detail` JSON-RPC's message, and `kind`, `code` and the error's data as members of their own.
    package static func problem(_ error: RPCError) -> HTTPResponse {
        problem(error.httpStatus, kind: error.kind, detail: error.message, code: error.rpcCode, data: error.details)
    }

    static func problem(
        _ status: HTTPStatus, kind: String, detail: String, code: Int? = nil, data: [String: JSONValue] = [:]
    ) -> HTTPResponse {
        HTTPResponse(
            status, headers: HTTPHeaders([("Content-Type", "application/problem+json")]),
            body: JSONValue.object(problemJSON(status, kind: kind, detail: detail, code: code, data: data)).jsonBytes)
    }

    /// The members of `error`'s problem.
    static func problemJSON(_ error: RPCError) -> [String: JSONValue] {
        problemJSON(error.httpStatus, kind: error.kind, detail: error.message, code: error.rpcCode, data: error.details)
    }

    private static func problemJSON(
        _ status: HTTPStatus, kind: String, detail: String, code: Int?, data: [String: JSONValue]
    ) -> [String: JSONValue] {
        var members = data
        members["type"] = .string("urn:weatherd:error:" + kind)
        members["title"] = .string(status.reason)
        members["status"] = .int(Int64(status.code))
        members["detail"] = .string(detail)
        members["kind"] = .string(kind)
        if let code { members["code"] = .int(Int64(code)) }
        return members
    }
}
