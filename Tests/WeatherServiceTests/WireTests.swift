import Foundation
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("What goes on the wire and into the log, in process")
struct WireTests {
    /// Whether `bytes` holds the raw UTF-8 of U+2028 or U+2029.
    static func hasRawSeparator(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 3 else { return false }
        return (0..<(bytes.count - 2)).contains { index in
            bytes[index] == 0xE2 && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9)
        }
    }

    @Test("U+2028 and U+2029 in a name go out escaped, on stdout and in the log, and decode back to the name")
    func lineSeparatorsAreEscaped() async throws {
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(directory: directory)
        let name = "Line\u{2028}Paragraph\u{2029}End"
        let added = try await service.result("favorites/add", ["name": .string(name), "lat": 1, "lon": 2])
        _ = try await service.result("favorites/list")
        await service.stop()
        #expect(added["name"] == .string(name))
        let lines = service.output.lines
        #expect(lines.count == 2)
        for line in lines {
            #expect(!Self.hasRawSeparator(line), "raw separator in \(String(decoding: line, as: UTF8.self))")
            #expect(String(decoding: line, as: UTF8.self).contains(#"Line\u2028Paragraph\u2029End"#))
        }
        let log = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.logPath)))
        #expect(log.contains(UInt8(ascii: "L")) && !Self.hasRawSeparator(log))
        let listed = try #require(
            try service.output.messages().last?["result"]?["favorites"]?.arrayValue?.first?["name"])
        #expect(listed == .string(name))
    }

    /// The output line whose id is written as `text`, by its bytes (decoding would lose exactly what is tested).
    static func line(withID text: String, in lines: [[UInt8]]) -> String? {
        lines.map { String(decoding: $0, as: UTF8.self) }.first { $0.contains(#"{"jsonrpc":"2.0","id":\#(text),"#) }
    }

    @Test(
        "a numeric id is echoed exactly as written, in answers, errors, batches and the events' cause",
        arguments: ["9223372036854775808", "-0", "1e2", "1.50", "-1.0E+2", "0.1000000000000000055511151231257827"])
    func numericIDsEchoedAsWritten(text: String) async throws {
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(directory: directory)
        await service.receive(Array(#"{"jsonrpc":"2.0","id":\#(text),"method":"settings/get"}"#.utf8))
        #expect(await service.output.wait(for: 1))
        let answer = try #require(Self.line(withID: text, in: service.output.lines))
        #expect(try JSONValue.parse(answer)["result"]?["units"] == "metric")

        await service.receive(Array(#"{"jsonrpc":"1.0","id":\#(text),"method":"settings/get"}"#.utf8))
        #expect(await service.output.wait(for: 2))
        let rejected = try #require(Self.line(withID: text, in: Array(service.output.lines.dropFirst())))
        #expect(try JSONValue.parse(rejected)["error"]?["code"] == -32600)

        await service.receive(
            Array(
                #"[{"jsonrpc":"2.0","id":"s","method":"settings/get"},{"jsonrpc":"2.0","id":\#(text),"method":"no/such"}]"#
                    .utf8))
        #expect(await service.output.wait(for: 3))
        let batch = String(decoding: try #require(service.output.lines.last), as: UTF8.self)
        #expect(batch.contains(#"{"jsonrpc":"2.0","id":\#(text),"error":"#))
        #expect(batch.contains(#"{"jsonrpc":"2.0","id":"s","result":"#))

        await service.receive(
            Array(
                #"{"jsonrpc":"2.0","id":\#(text),"method":"favorites/add","params":{"name":"X","lat":1,"lon":2}}"#.utf8)
        )
        #expect(await service.output.wait(for: 4))
        await service.stop()
        let log = String(decoding: try Data(contentsOf: URL(fileURLWithPath: directory.logPath)), as: UTF8.self)
        #expect(log.contains(#""type":"favorite.added","v":1,"cause":"stdio/rpc:\#(text)""#))
    }

    @Test("string, integer and null ids keep their encoding")
    func otherIDs() async throws {
        try await InProcessWeatherd.with { service in
            await service.receive(Array(#"{"jsonrpc":"2.0","id":"a\u0062","method":"settings/get"}"#.utf8))
            await service.receive(Array(#"{"jsonrpc":"2.0","id":-7,"method":"settings/get"}"#.utf8))
            await service.receive(Array(#"{"jsonrpc":"2.0","id":null,"method":"settings/get"}"#.utf8))
            #expect(await service.output.wait(for: 3))
            let lines = service.output.lines
            #expect(Self.line(withID: #""ab""#, in: lines) != nil)
            #expect(Self.line(withID: "-7", in: lines) != nil)
            #expect(Self.line(withID: "null", in: lines) != nil)
        }
    }

    @Test("the id texts of a batch are found element by element, whatever the white space")
    func memberTexts() {
        let texts = JSONValue.memberTexts(
            "id", in: Array(#" [ {"a":{"id":1},"id" : -0 } , 3, {"b":[1,{"id":2}]}, {"id":1.50} ] "#.utf8))
        #expect(texts == [Array("-0".utf8), nil, nil, Array("1.50".utf8)])
        #expect(JSONValue.memberTexts("id", in: Array(#"{"id":1e2}"#.utf8)) == [Array("1e2".utf8)])
    }

    @Test("weather by the client's coordinates logs them rounded to the cache's 2 decimals, fetched or failed")
    func clientCoordinatesRounded() async throws {
        let network = InMemoryTransport()
        network.route("/v1/forecast", query: "current=", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 3)))
        network.route("/v1/forecast", query: "hourly=", InMemoryTransport.status(404))
        var fetch = FetchPolicy()
        fetch.backoff = .zero
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(directory: directory, network: network, fetch: fetch)
        let current = try await service.result("weather/current", ["lat": 48.856614, "lon": 2.3522219])
        #expect(current["location"]?["lat"] == 48.86)
        #expect(current["location"]?["lon"] == 2.35)
        let forecast = try await service.call("weather/forecast", ["lat": -33.868820, "lon": 151.209295])
        #expect(forecast["error"] != nil)
        await service.stop()
        let log = String(decoding: try Data(contentsOf: URL(fileURLWithPath: directory.logPath)), as: UTF8.self)
        #expect(log.contains(#""type":"weather.fetched""#) && log.contains(#""type":"weather.fetch_failed""#))
        for exact in ["48.8566", "2.3522", "33.8688", "151.2092"] {
            #expect(!log.contains(exact), "\(exact) is in the log")
        }
        #expect(log.contains(#""place":{"lat":48.86,"lon":2.35}"#))
        #expect(log.contains("latitude=-33.87"))
        #expect(network.requests.allSatisfy { !$0.contains("48.8566") && !$0.contains("33.8688") })
    }
}
