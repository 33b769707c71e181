import WeatherDomain
import WeatherEngine

/// What the relay needs to know of a line, cheaply: which answers a client line will get, which ids a
/// daemon line answers.
///
/// A client line is judged exactly as `RPCServer` judges it (same parser, depth and validation), so the
/// relay expects precisely the answers the daemon will send: one per request with an id, one with id null
/// for a line that is not JSON or a request that is invalid, none for a notification or a blank line.
package enum RelayLines {
    /// One answer the daemon owes: its id, and a numeric id's text as the client wrote it (see `RPCRequest`).
    package struct Expected: Sendable, Equatable {
        package var id: JSONValue
        package var idText: [UInt8]?

        package init(id: JSONValue, idText: [UInt8]? = nil) {
            self.id = id
            self.idText = idText
        }
    }

    /// What a client line means to the relay, from one parse.
    package struct Judgement: Sendable, Equatable {
        /// The answers the daemon will send, in the order of the line's requests.
        package var expected: [Expected] = []
        /// The requests the line cancels MCP's way (`notifications/cancelled` with `requestId`): the daemon
        /// never answers them, so the relay stops waiting for them.
        package var silenced: [JSONValue] = []
    }

    /// Judges a client line: the answers it will get from the daemon and the requests it silences.
    package static func judge(_ line: [UInt8]) -> Judgement {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return Judgement() }
        let value: JSONValue
        do {
            value = try JSONValue.parse(line, maxDepth: RPCServer.maxDepth)
        } catch {
            return Judgement(expected: [Expected(id: .null)])
        }
        guard case .array(let elements) = value else {
            let idText =
                RPCRequest.mayBeRewritten(value["id"]) ? JSONValue.memberTexts("id", in: line).first ?? nil : nil
            return Judgement(
                expected: expected(value, idText: idText).map { [$0] } ?? [],
                silenced: silenced(value).map { [$0] } ?? [])
        }
        guard !elements.isEmpty else { return Judgement(expected: [Expected(id: .null)]) }
        let idTexts =
            elements.contains { RPCRequest.mayBeRewritten($0["id"]) } ? JSONValue.memberTexts("id", in: line) : []
        return Judgement(
            expected: elements.enumerated().compactMap { index, element in
                expected(element, idText: index < idTexts.count ? idTexts[index] : nil)
            },
            silenced: elements.compactMap(silenced))
    }

    /// The request a message cancels MCP's way, if it is such a notification.
    private static func silenced(_ message: JSONValue) -> JSONValue? {
        guard message["method"] == "notifications/cancelled", message["id"] == nil else { return nil }
        return message["params"]?["requestId"]
    }

    /// The answer one request will get; nil for a valid notification.
    private static func expected(_ value: JSONValue, idText: [UInt8]?) -> Expected? {
        switch RPCRequest.validate(value, idText: idText) {
        case .success(let request): request.id.map { Expected(id: $0, idText: request.idText) }
        case .failure(let rejection): Expected(id: rejection.id, idText: rejection.idText)
        }
    }

    /// The ids a daemon line answers: the id of an answer object (one without `method`), or of each answer in
    /// a batch; none for a notification. Members other than `id` and `method` are stepped over, not decoded,
    /// so a large answer costs one scan.
    package static func answeredIDs(_ line: UnsafeRawBufferPointer) -> [JSONValue] {
        guard let start = line.firstIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return [] }
        switch line[start] {
        case UInt8(ascii: "{"):
            guard let members = try? JSONValue.parseMembers(line, keeping: ["id", "method"], maxDepth: 1024),
                members["method"] == nil, let id = members["id"]
            else { return [] }
            return [id]
        case UInt8(ascii: "["):
            return JSONValue.memberTexts("id", in: line).compactMap { text in
                text.flatMap { try? JSONValue.parse($0) }
            }
        default:
            return []
        }
    }
}
