import WeatherDomain
import WeatherEngine

/// One validated JSON-RPC request or notification.
package struct RPCRequest: Sendable {
    /// The id; nil for a notification. May be a string, a number or null.
    package var id: JSONValue?
    package var method: String
    /// The params: nil when absent.
    package var params: JSONValue?
    /// A numeric id as the client wrote it (`-0`, `1.50`, `9223372036854775808`), echoed instead of `id`'s
    /// canonical encoding so the client can match the answer; nil for other ids.
    package var idText: [UInt8]?

    /// A message that is not a valid request: the error to answer and the id to answer it with.
    struct Rejection: Error {
        var error: RPCError
        var id: JSONValue
        var idText: [UInt8]?
    }

    /// Whether an id's canonical encoding may differ from the client's text: a fraction, an exponent, a
    /// number beyond 64 bits, or a zero (which may have been `-0`). Other integers encode as written.
    static func mayBeRewritten(_ id: JSONValue?) -> Bool {
        switch id {
        case .double?, .int(0)?: true
        default: false
        }
    }

    /// Whether it is a notification (no `id` member), which never gets a response.
    package var isNotification: Bool { id == nil }

    /// Validates a decoded message.
    ///
    /// - Returns: the request, or the error to answer and the id to answer it with.
    /// - Parameter idText: the id member's text as written, when `mayBeRewritten` says it matters.
    static func validate(_ value: JSONValue, idText: [UInt8]? = nil) -> Result<RPCRequest, Rejection> {
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
        let idText = mayBeRewritten(id) ? idText : nil
        guard members["jsonrpc"] == .string("2.0") else {
            return .failure(
                Rejection(error: RPCError.invalidRequest("jsonrpc must be \"2.0\""), id: answerID, idText: idText))
        }
        guard case .string(let method)? = members["method"] else {
            return .failure(
                Rejection(error: RPCError.invalidRequest("method must be a string"), id: answerID, idText: idText))
        }
        switch members["params"] {
        case nil, .object?, .array?: break
        default:
            return .failure(
                Rejection(
                    error: RPCError.invalidRequest("params must be an object or an array"), id: answerID, idText: idText
                ))
        }
        if let extra = members.keys.first(where: { !["jsonrpc", "id", "method", "params"].contains($0) }) {
            return .failure(
                Rejection(
                    error: RPCError.invalidRequest("unexpected member \"\(extra)\""), id: answerID, idText: idText))
        }
        return .success(RPCRequest(id: id, method: method, params: members["params"], idText: idText))
    }
}

/// Builds protocol lines as bytes, in the conventional member order.
package enum RPCLine {
    /// `{"jsonrpc":"2.0","id":…,"result":…}`, with the id as `idText` when given (a number as written).
    package static func result(id: JSONValue, idText: [UInt8]? = nil, _ result: JSONValue, into buffer: inout [UInt8]) {
        buffer.append(contentsOf: #"{"jsonrpc":"2.0","id":"#.utf8)
        appendID(id, idText, into: &buffer)
        buffer.append(contentsOf: #","result":"#.utf8)
        result.encode(into: &buffer)
        buffer.append(UInt8(ascii: "}"))
    }

    /// `{"jsonrpc":"2.0","id":…,"error":{…}}`, with the id as `idText` when given (a number as written).
    package static func error(id: JSONValue, idText: [UInt8]? = nil, _ error: RPCError, into buffer: inout [UInt8]) {
        buffer.append(contentsOf: #"{"jsonrpc":"2.0","id":"#.utf8)
        appendID(id, idText, into: &buffer)
        buffer.append(contentsOf: #","error":"#.utf8)
        error.json.encode(into: &buffer)
        buffer.append(UInt8(ascii: "}"))
    }

    /// `{"jsonrpc":"2.0","method":…,"params":…}`
    package static func notification(method: String, params: JSONValue, into buffer: inout [UInt8]) {
        buffer.append(contentsOf: #"{"jsonrpc":"2.0","method":"#.utf8)
        appendJSONString(method, to: &buffer)
        buffer.append(contentsOf: #","params":"#.utf8)
        params.encode(into: &buffer)
        buffer.append(UInt8(ascii: "}"))
    }

    private static func appendID(_ id: JSONValue, _ idText: [UInt8]?, into buffer: inout [UInt8]) {
        if let idText { buffer.append(contentsOf: idText) } else { id.encode(into: &buffer) }
    }
}
