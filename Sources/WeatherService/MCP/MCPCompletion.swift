import WeatherDomain
import WeatherEngine

extension MCPController {
    /// `completion/complete` for the `place` argument of the weather templates: favorites whose id or
    /// name starts with the typed text first, then, from 3 characters on, the geocoder's candidates.
    func complete(_ request: MCPRequest, _ params: FieldReader, cause: String) async throws -> JSONValue {
        let ref = try FieldReader(params.members["ref"], path: "params.ref")
        let argument = try FieldReader(params.members["argument"], path: "params.argument")
        let name = try argument.string("name")
        let typed = try argument.string("value")
        switch try ref.string("type") {
        case "ref/resource":
            let uri = try ref.string("uri")
            guard [MCPResourceURI.currentTemplate, MCPResourceURI.forecastTemplate].contains(uri) else {
                throw RPCError.invalidParams("params.ref.uri must be one of weatherd's resource templates")
            }
            guard name == "place" else {
                throw RPCError.invalidParams("params.argument.name must be place (the templates' only argument)")
            }
        case "ref/prompt":
            throw RPCError.invalidParams("weatherd has no prompts")
        default:
            throw RPCError.invalidParams("params.ref.type must be ref/resource or ref/prompt")
        }
        let values = try await engine.completePlace(typed, cause: cause)
        let shown = Array(values.prefix(100))
        return request.result([
            "completion": [
                "values": .array(shown.map { .string($0) }), "total": .int(Int64(values.count)),
                "hasMore": .bool(values.count > shown.count),
            ]
        ])
    }
}
