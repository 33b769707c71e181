import EventLog
import Testing
import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Stateful methods, in process")
struct StatefulMethodTests {

    @Test("favorites: add, update, remove, with exact results")
    func favorites() async throws {
        let clock = ManualClock()
        try await InProcessWeatherd.with(clock: clock) { service in
            let added = try await service.result(
                "favorites/add", ["name": "Oslo", "lat": 59.91, "lon": 10.75, "country": "NO"])
            #expect(
                added == [
                    "id": "fav-1", "name": "Oslo", "country": "NO", "lat": 59.91, "lon": 10.75,
                    "addedAt": .string(clock.timestamp.description), "notify": true,
                ])
            let updated = try await service.result("favorites/update", ["id": "fav-1", "notify": false])
            #expect(updated["notify"] == false)
            #expect(updated["name"] == "Oslo")
            let missing = try await service.call("favorites/remove", ["id": "fav-9"])
            #expect(missing["error"]?["code"] == 1000)
            #expect(missing["error"]?["data"]?["kind"] == "not_found")
            let duplicate = try await service.call("favorites/add", ["name": "Oslo 2", "lat": 59.9101, "lon": 10.7501])
            #expect(duplicate["error"]?["data"]?["kind"] == "already_exists")
            let removed = try await service.result("favorites/remove", ["id": "fav-1"])
            #expect(removed["id"] == "fav-1")
            #expect(try await service.result("favorites/list") == ["favorites": []])
        }
    }

    @Test("past --max-favorites an add is 1012 too_many_favorites; pages list the rest most recent first")
    func maxFavorites() async throws {
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(directory: directory, maxFavorites: 3)
        for number in 1...3 {
            _ = try await service.result(
                "favorites/add", ["name": .string("P\(number)"), "lat": .int(Int64(number)), "lon": 0])
        }
        let refused = try await service.call("favorites/add", ["name": "P4", "lat": 4, "lon": 0])
        #expect(refused["error"]?["code"] == 1012)
        #expect(refused["error"]?["data"]?["kind"] == "too_many_favorites")
        _ = try await service.result("favorites/remove", ["id": "fav-2"])
        _ = try await service.result("favorites/add", ["name": "P4", "lat": 4, "lon": 0])
        let first = try await service.result("favorites/list", ["limit": 2])
        #expect(first["favorites"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["fav-4", "fav-3"])
        let cursor = try #require(first["nextCursor"])
        let second = try await service.result("favorites/list", ["limit": 2, "cursor": cursor])
        #expect(second["favorites"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["fav-1"])
        #expect(second["nextCursor"] == nil)
        await service.stop()
    }

    @Test("location/get answers no_location until a location is set")
    func noLocation() async throws {
        try await InProcessWeatherd.with { service in
            let response = try await service.call("location/get")
            #expect(response["error"]?["code"] == 1001)
            #expect(response["error"]?["data"]?["kind"] == "no_location")
        }
    }

    @Test("history/clear on an empty history writes nothing and says so")
    func historyClear() async throws {
        try await InProcessWeatherd.with { service in
            #expect(try await service.result("history/list") == ["history": []])
            #expect(try await service.result("history/clear") == ["history": [], "cleared": 0])
            let status = try await service.result("service/status")
            #expect(status["lastSeq"] == 0, "no event for a change that changes nothing")
        }
    }

    @Test("lists page with limit and an opaque cursor")
    func paging() async throws {
        try await InProcessWeatherd.with { service in
            for index in 0..<5 {
                _ = try await service.result(
                    "favorites/add", ["name": .string("P\(index)"), "lat": .int(Int64(index)), "lon": 0])
            }
            let first = try await service.result("favorites/list", ["limit": 2])
            #expect(first["favorites"]?.arrayValue?.map { $0["name"] } == ["P4", "P3"])
            let cursor = try #require(first["nextCursor"])
            let second = try await service.result("favorites/list", ["limit": 2, "cursor": cursor])
            #expect(second["favorites"]?.arrayValue?.map { $0["name"] } == ["P2", "P1"])
            let third = try await service.result(
                "favorites/list", ["limit": 2, "cursor": try #require(second["nextCursor"])])
            #expect(third["favorites"]?.arrayValue?.map { $0["name"] } == ["P0"])
            #expect(third["nextCursor"] == nil)

            let events = try await service.result("events/query", ["types": ["favorite.added"], "limit": 3])
            #expect(events["events"]?.arrayValue?.map { $0["seq"] } == [1, 2, 3])
            let rest = try await service.result(
                "events/query", ["types": ["favorite.added"], "limit": 3, "cursor": try #require(events["nextCursor"])])
            #expect(rest["events"]?.arrayValue?.map { $0["seq"] } == [4, 5])
            #expect(rest["nextCursor"] == nil)
            let after = try await service.result("events/query", ["afterSeq": 4])
            #expect(after["events"]?.arrayValue?.map { $0["data"]?["name"] } == ["P4"])
        }
    }

    @Test("events/query filters by time")
    func timeFilter() async throws {
        let clock = ManualClock()
        try await InProcessWeatherd.with(clock: clock) { service in
            _ = try await service.result("settings/set", ["units": "imperial"])
            clock.advance(milliseconds: 60_000)
            let middle = clock.timestamp
            _ = try await service.result("settings/set", ["units": "metric"])
            let since = try await service.result("events/query", ["since": .string(middle.description)])
            #expect(since["events"]?.arrayValue?.map { $0["data"]?["units"] } == ["metric"])
            let until = try await service.result("events/query", ["until": .string(middle.description)])
            #expect(until["events"]?.arrayValue?.map { $0["data"]?["units"] } == ["imperial"])
        }
    }

    @Test("a repeated commandId returns the original result and writes nothing, even when sent concurrently")
    func idempotency() async throws {
        try await InProcessWeatherd.with { service in
            let params: JSONValue = ["name": "Lima", "lat": -12.05, "lon": -77.04, "commandId": "add-lima"]
            let line = JSONValue.object(["jsonrpc": "2.0", "id": "a", "method": "favorites/add", "params": params])
                .jsonBytes
            let again = JSONValue.object(["jsonrpc": "2.0", "id": "b", "method": "favorites/add", "params": params])
                .jsonBytes
            await service.receive(line)
            await service.receive(again)
            let first = try #require(try await service.output.response(id: "a"))
            let second = try #require(try await service.output.response(id: "b"))
            #expect(first["result"] != nil)
            #expect(first["result"] == second["result"])
            let third = try await service.call("favorites/add", params)
            #expect(third["result"] == first["result"])
            let events = try await service.result("events/query", ["types": ["favorite.added"]])
            #expect(events["events"]?.arrayValue?.count == 1)
            #expect(events["events"]?.arrayValue?.first?["corr"] == "add-lima")
            #expect(events["events"]?.arrayValue?.first?["cause"] == "stdio/rpc:a")
        }
    }

    @Test("state/verify finds live state equal to a replay of the log")
    func verify() async throws {
        try await InProcessWeatherd.with { service in
            _ = try await service.result("favorites/add", ["name": "A", "lat": 1, "lon": 1, "commandId": "x"])
            _ = try await service.result("favorites/add", ["name": "B", "lat": 2, "lon": 2])
            _ = try await service.result("favorites/update", ["id": "fav-1", "name": "A2"])
            _ = try await service.result("favorites/remove", ["id": "fav-2"])
            _ = try await service.result("settings/set", ["units": "standard"])
            let verdict = try await service.result("state/verify")
            #expect(verdict["ok"] == true)
            #expect(verdict["slices"]?["favorites"]?["equal"] == true)
            #expect(verdict["live"] == verdict["replayed"])
        }
    }

    @Test("a full disk answers storage_failure, changes nothing, and leaves reads working")
    func diskFull() async throws {
        let file = FaultInjectingFile()
        try await InProcessWeatherd.with(file: file) { service in
            _ = try await service.result("favorites/add", ["name": "Kept", "lat": 1, "lon": 1])
            let before = file.contents
            file.failAppend(.init(partialBytes: 10, errno: ENOSPC))
            let failed = try await service.call("favorites/add", ["name": "Lost", "lat": 2, "lon": 2])
            #expect(failed["error"]?["code"] == 1003)
            #expect(failed["error"]?["data"]?["kind"] == "storage_failure")
            #expect(failed["error"]?["message"]?.stringValue?.contains("read-only") == true)
            #expect(file.contents == before, "the log is cut back to its last durable byte")
            let list = try await service.result("favorites/list")
            #expect(list["favorites"]?.arrayValue?.map { $0["name"] } == ["Kept"])
            let later = try await service.call("settings/set", ["units": "imperial"])
            #expect(later["error"]?["data"]?["kind"] == "storage_failure")
            #expect(try await service.result("settings/get")["units"] == "metric")
            let status = try await service.result("service/status")
            #expect(status["readOnly"] == true)
        }
    }

    @Test("a failed fsync is not retried and turns the service read-only")
    func fsyncFailure() async throws {
        let file = FaultInjectingFile()
        try await InProcessWeatherd.with(file: file) { service in
            _ = try await service.result("settings/set", ["units": "imperial"])
            let syncs = file.syncCount
            file.failSync(errno: EIO)
            let failed = try await service.call("settings/set", ["units": "standard"])
            #expect(failed["error"]?["data"]?["kind"] == "storage_failure")
            #expect(try await service.result("settings/get")["units"] == "imperial")
            #expect(file.syncCount == syncs)
        }
    }
}
