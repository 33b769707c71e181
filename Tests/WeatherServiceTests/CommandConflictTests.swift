import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

@Suite("A commandId reused for another command, in process")
struct CommandConflictTests {
    static let oslo: JSONValue = ["name": "Oslo", "lat": 59.91, "lon": 10.75, "commandId": "c-1"]

    static func expectConflict(_ response: JSONValue, naming method: String) {
        #expect(response["error"]?["code"] == -32602)
        #expect(response["error"]?["data"]?["kind"] == "command_conflict")
        #expect(response["error"]?["data"]?["method"] == .string(method))
        let message = response["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("c-1") && message.contains(method), "\(message)")
    }

    @Test("another method with a used commandId is -32602 naming the first method, and changes nothing")
    func otherMethod() async throws {
        try await InProcessWeatherd.with { service in
            let added = try await service.result("favorites/add", Self.oslo)
            let reused = try await service.call("settings/set", ["units": "imperial", "commandId": "c-1"])
            Self.expectConflict(reused, naming: "favorites/add")
            #expect(try await service.result("settings/get")["units"] == "metric")
            #expect(try await service.result("service/status")["lastSeq"] == 1)
            #expect(try await service.result("favorites/add", Self.oslo) == added, "a true repeat still answers")
        }
    }

    @Test("the same method with other params is a conflict; the same params in another form are a repeat")
    func otherParams() async throws {
        try await InProcessWeatherd.with { service in
            let added = try await service.result("favorites/add", Self.oslo)
            let moved = try await service.call(
                "favorites/add", ["name": "Oslo", "lat": 60.0, "lon": 10.75, "commandId": "c-1"])
            Self.expectConflict(moved, naming: "favorites/add")
            let sameParams: JSONValue = ["lon": 10.75, "commandId": "c-1", "lat": 59.91, "name": "Oslo"]
            #expect(try await service.result("favorites/add", sameParams) == added)
            let list = try await service.result("favorites/list")
            #expect(list["favorites"]?.arrayValue?.count == 1)
        }
    }

    @Test("a conflicting repeat sent while the first command is still running is refused too")
    func whileRunning() async throws {
        try await InProcessWeatherd.with { service in
            let add = JSONValue.object([
                "jsonrpc": "2.0", "id": "add", "method": "favorites/add", "params": Self.oslo,
            ])
            let set: JSONValue = [
                "jsonrpc": "2.0", "id": "set", "method": "settings/set",
                "params": ["units": "imperial", "commandId": "c-1"],
            ]
            await service.receive(add.jsonBytes)
            await service.receive(set.jsonBytes)
            let first = try #require(try await service.output.response(id: "add"))
            let second = try #require(try await service.output.response(id: "set"))
            #expect(first["result"]?["name"] == "Oslo")
            Self.expectConflict(second, naming: "favorites/add")
            #expect(try await service.result("settings/get")["units"] == "metric")
        }
    }

    @Test("after a restart the method a commandId was used for is known from the log")
    func afterRestart() async throws {
        let directory = TemporaryDataDirectory()
        let first = try InProcessWeatherd(directory: directory)
        _ = try await first.result("favorites/add", Self.oslo)
        await first.stop()
        let second = try InProcessWeatherd(directory: directory)
        let reused = try await second.call("favorites/remove", ["id": "fav-1", "commandId": "c-1"])
        Self.expectConflict(reused, naming: "favorites/add")
        #expect(try await second.result("favorites/list")["favorites"]?.arrayValue?.count == 1)
        await second.stop()
    }
}
