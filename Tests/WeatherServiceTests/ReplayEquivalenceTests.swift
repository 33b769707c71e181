import EventLog
import Testing
import WeatherDomain
import WeatherService
import WeatherTesting

@Suite("Replay equivalence")
struct ReplayEquivalenceTests {
    @Test("1,000 seeded random command sequences: live state equals a full replay, byte for byte")
    func randomSequences() async throws {
        var random = SeededGenerator(state: 77)
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(directory: directory)
        var lines: [[UInt8]] = []
        for index in 0..<1000 {
            let params: JSONValue
            let method: String
            switch Int.random(in: 0..<7, using: &random) {
            case 0, 1:
                method = "favorites/add"
                params = [
                    "name": .string("P\(index)"),
                    "lat": .double(Double(Int.random(in: -899...899, using: &random)) / 10),
                    "lon": .double(Double(Int.random(in: -1799...1799, using: &random)) / 10),
                    "commandId": .string("c-\(Int.random(in: 0..<800, using: &random))"),
                ]
            case 2:
                method = "favorites/remove"
                params = ["id": .string("fav-\(Int.random(in: 1..<400, using: &random))")]
            case 3:
                method = "favorites/update"
                params = [
                    "id": .string("fav-\(Int.random(in: 1..<400, using: &random))"), "name": .string("N\(index)"),
                    "notify": .bool(Bool.random(using: &random)),
                ]
            case 4:
                method = "settings/set"
                params = ["units": .string(Units.allCases.randomElement(using: &random)?.rawValue ?? "metric")]
            case 5:
                method = "alerts/configure"
                params = [
                    "tempDropC": .int(Int64(Int.random(in: 1...20, using: &random))),
                    "severe": .bool(Bool.random(using: &random)),
                ]
            default:
                method = "history/clear"
                params = [:]
            }
            lines.append(
                JSONValue.object([
                    "jsonrpc": "2.0", "id": .string("r-\(index)"), "method": .string(method), "params": params,
                ]).jsonBytes)
        }
        for line in lines { await service.receive(line) }
        #expect(await service.output.wait(for: 1000, timeout: .seconds(60)))
        let verify = try await service.result("state/verify")
        #expect(verify["ok"] == true)
        #expect(verify["live"] == verify["replayed"])
        await service.stop()
        let replayed = try Replay.run(path: directory.logPath, commandWindow: 100_000).state
        let again = try Replay.run(path: directory.logPath, commandWindow: 100_000).state
        #expect(replayed.json.jsonBytes == again.json.jsonBytes)
        #expect(replayed.favorites.items.count > 10)
    }
}
