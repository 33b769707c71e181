import WeatherDomain

/// One validated JSON-RPC request or notification.
public struct RPCRequest: Sendable {
    /// The id; nil for a notification. May be a string, a number or null.
    public var id: JSONValue?
    public var method: String
    /// The params: nil when absent.
    public var params: JSONValue?

    /// A message that is not a valid request: the error to answer and the id to answer it with.
    struct Rejection: Error {
        var error: RPCError
        var id: JSONValue
    }

    /// Whether it is a notification (no `id` member), which never gets a response.
    public var isNotification: Bool { id == nil }

    /// Validates a decoded message.
    ///
    /// - Returns: the request, or the error to answer and the id to answer it with.
    static func validate(_ value: JSONValue) -> Result<RPCRequest, Rejection> {
        guard case .object(let members) = value else {
            return .failure(
                Rejection(error: RPCError.invalidRequest("a request must be a JSON object"), id: JSONValue.null))
        }
        var id: JSONValue?
        switch members["id"] {
        case nil: id = nil
        case .string?, .int?, .double?, .null?: id = members["id"]
        default:
            return .failure(
                Rejection(error: RPCError.invalidRequest("id must be a string, a number or null"), id: JSONValue.null))
        }
        let answerID = id ?? .null
        guard members["jsonrpc"] == .string("2.0") else {
            return .failure(Rejection(error: RPCError.invalidRequest("jsonrpc must be \"2.0\""), id: answerID))
        }
        guard case .string(let method)? = members["method"] else {
            return .failure(Rejection(error: RPCError.invalidRequest("method must be a string"), id: answerID))
        }
        switch members["params"] {
        case nil, .object?, .array?: break
        default:
            return .failure(
                Rejection(error: RPCError.invalidRequest("params must be an object or an array"), id: answerID))
        }
        if let extra = members.keys.first(where: { !["jsonrpc", "id", "method", "params"].contains($0) }) {
            return .failure(Rejection(error: RPCError.invalidRequest("unexpected member \"\(extra)\""), id: answerID))
        }
        return .success(RPCRequest(id: id, method: method, params: members["params"]))
    }
}

/// Builds protocol lines as bytes, in the conventional member order.
public enum RPCLine {
    /// `{"jsonrpc":"2.0","id":…,"result":…}`
    public static func result(id: JSONValue, _ result: JSONValue, into buffer: inout [UInt8]) {
        buffer.append(contentsOf: #"{"jsonrpc":"2.0","id":"#.utf8)
        id.encode(into: &buffer)
        buffer.append(contentsOf: #","result":"#.utf8)
        result.encode(into: &buffer)
        buffer.append(UInt8(ascii: "}"))
    }

    /// `{"jsonrpc":"2.0","id":…,"error":{…}}`
    public static func error(id: JSONValue, _ error: RPCError, into buffer: inout [UInt8]) {
        buffer.append(contentsOf: #"{"jsonrpc":"2.0","id":"#.utf8)
        id.encode(into: &buffer)
        buffer.append(contentsOf: #","error":"#.utf8)
        error.json.encode(into: &buffer)
        buffer.append(UInt8(ascii: "}"))
    }

    /// `{"jsonrpc":"2.0","method":…,"params":…}`
    public static func notification(method: String, params: JSONValue, into buffer: inout [UInt8]) {
        buffer.append(contentsOf: #"{"jsonrpc":"2.0","method":"#.utf8)
        appendJSONString(method, to: &buffer)
        buffer.append(contentsOf: #","params":"#.utf8)
        params.encode(into: &buffer)
        buffer.append(UInt8(ascii: "}"))
    }
}
