import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("JSON-RPC front, in process")
struct ProtocolTests {

    func errorCode(_ response: JSONValue?) -> Int64? { response?["error"]?["code"]?.intValue }

    @Test(
        "malformed input gets the specified error with id null",
        arguments: [
            ("{\"jsonrpc\":\"2.0\",\"method\":\"foo\",\"params\":\"bar\",\"id\":1", -32700, "parse_error"),
            ("\u{FEFF}{\"jsonrpc\":\"2.0\",\"method\":\"settings/get\",\"id\":1}", -32700, "byte_order_mark"),
            ("{\"jsonrpc\":\"2.0\",\"method\":\"settings/get\",\"id\":1,\"x\":\"\u{0}\"}", -32700, "parse_error"),
            ("[]", -32600, "invalid_request"),
            ("1", -32600, "invalid_request"),
            (String(repeating: "[", count: 65) + String(repeating: "]", count: 65), -32600, "too_deep"),
        ])
    func malformed(line: String, code: Int64, kind: String) async throws {
        try await InProcessWeatherd.with { service in
            await service.receive(Array(line.utf8))
            #expect(await service.output.wait(for: 1))
            let message = try #require(try service.output.messages().first)
            #expect(message["id"] == .null)
            #expect(errorCode(message) == code)
            #expect(message["error"]?["data"]?["kind"] == .string(kind))
        }
    }

    @Test("invalid UTF-8 is a parse error, and the service keeps serving")
    func invalidUTF8() async throws {
        try await InProcessWeatherd.with { service in
            await service.receive([0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D])
            #expect(await service.output.wait(for: 1))
            #expect(try service.output.messages()[0]["error"]?["data"]?["kind"] == "invalid_utf8")
            let next = try await service.call("settings/get")
            #expect(next["result"]?["units"] == "metric")
        }
    }

    @Test("invalid requests are answered with their id when it can be read")
    func invalidRequest() async throws {
        try await InProcessWeatherd.with { service in
            await service.receive(Array(#"{"jsonrpc":"1.0","method":"settings/get","id":"a"}"#.utf8))
            await service.receive(Array(#"{"jsonrpc":"2.0","method":1,"params":"bar"}"#.utf8))
            #expect(await service.output.wait(for: 2))
            let messages = try service.output.messages()
            #expect(messages[0]["id"] == "a")
            #expect(errorCode(messages[0]) == -32600)
            #expect(messages[1]["id"] == .null)
            #expect(errorCode(messages[1]) == -32600)
        }
    }

    @Test("unknown methods: -32601 for a request, nothing for a notification")
    func unknownMethod() async throws {
        try await InProcessWeatherd.with { service in
            await service.receive(Array(#"{"jsonrpc":"2.0","method":"no/such"}"#.utf8))
            let response = try await service.call("no/such")
            #expect(errorCode(response) == -32601)
            let message = try #require(response["error"]?["message"]?.stringValue)
            #expect(message.contains("\"JSON-RPC reference\"") && !message.contains("README"), "\(message)")
            #expect(service.output.lines.count == 1)
        }
    }

    @Test("a batch answers every request in one array; notifications only give no output")
    func batches() async throws {
        try await InProcessWeatherd.with { service in
            await service.receive(
                Array(#"[{"jsonrpc":"2.0","method":"settings/get"},{"jsonrpc":"2.0","method":"no/such"}]"#.utf8))
            await service.receive(
                Array(
                    #"[{"jsonrpc":"2.0","method":"settings/get","id":1},{"jsonrpc":"2.0","method":"settings/get"},1,{"jsonrpc":"2.0","method":"no/such","id":2}]"#
                        .utf8))
            #expect(await service.output.wait(for: 1))
            _ = try await service.call("service/status")
            let messages = try service.output.messages()
            #expect(messages.count == 2, "the notification-only batch must give no output")
            let batch = try #require(messages[0].arrayValue)
            #expect(batch.count == 3)
            #expect(batch.first { $0["id"] == 1 }?["result"]?["units"] == "metric")
            #expect(errorCode(batch.first { $0["id"] == 2 }) == -32601)
            #expect(errorCode(batch.first { $0["id"] == .null }) == -32600)
        }
    }

    static let badParams: [(String, JSONValue, String)] = [
        ("favorites/add", ["name": "X", "lat": 91, "lon": 0], "params.lat"),
        ("favorites/add", ["name": "X", "lat": 0, "lon": -180.5], "params.lon"),
        ("favorites/add", ["name": "  ", "lat": 0, "lon": 0], "params.name"),
        ("favorites/add", ["name": "X", "lat": "north", "lon": 0], "params.lat"),
        ("favorites/add", ["name": "X", "lat": 1, "lon": 2, "nmae": "typo"], "params.nmae"),
        ("favorites/remove", [:], "params.id"),
        ("favorites/update", ["id": "fav-1", "notify": "yes"], "params.notify"),
        ("settings/set", ["units": "kelvin"], "params.units"),
        ("favorites/list", ["limit": 0], "params.limit"),
        ("events/query", ["types": "favorite.added"], "params.types"),
        ("events/query", ["since": "yesterday"], "params.since"),
        ("settings/set", ["units": "metric", "commandId": 7], "params.commandId"),

    ]

    @Test("invalid params are -32602 with a message naming the member", arguments: badParams)
    func invalidParams(method: String, params: JSONValue, member: String) async throws {
        try await InProcessWeatherd.with { service in
            let response = try await service.call(method, params)
            #expect(errorCode(response) == -32602)
            #expect(response["error"]?["message"]?.stringValue?.contains(member) == true)
        }
    }

    @Test("params given as an array are refused for named-param methods")
    func positionalParams() async throws {
        try await InProcessWeatherd.with { service in
            let response = try await service.call("settings/set", ["metric"])
            #expect(errorCode(response) == -32602)
        }
    }
}
