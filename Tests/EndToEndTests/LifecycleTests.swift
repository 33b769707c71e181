import Foundation
import Testing
import WeatherDomain
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("weatherd end to end: lifecycle, durability and the lock")
struct LifecycleTests {
    @Test("a session of changes ends cleanly at end of input and leaves a log that check-log accepts")
    func session() async throws {
        let directory = TemporaryDataDirectory()
        let weatherd = try startWeatherd(directory)
        let added = try await weatherd.call("favorites/add", ["name": "Berlin", "lat": 52.52, "lon": 13.405])
        let id = try #require(added["result"]?["id"]?.stringValue)
        _ = try await weatherd.call("favorites/add", ["name": "Paris", "lat": 48.85, "lon": 2.35, "country": "FR"])
        _ = try await weatherd.call("favorites/update", ["id": .string(id), "name": "Home", "notify": false])
        _ = try await weatherd.call("settings/set", ["units": "imperial"])
        let list = try await weatherd.call("favorites/list")
        #expect(list["result"]?["favorites"]?.arrayValue?.map { $0["name"] } == ["Paris", "Home"])
        let verify = try await weatherd.call("state/verify")
        #expect(verify["result"]?["ok"] == true)
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)

        let types = try logEvents(directory).map { $0["type"]?.stringValue ?? "" }
        #expect(
            types == [
                "service.started", "favorite.added", "favorite.added", "favorite.updated", "settings.changed",
                "service.stopped",
            ])
        try Repository.checkLog(directory.path)

        var mode = stat()
        #expect(stat(directory.path, &mode) == 0)
        #expect(mode.st_mode & 0o777 == 0o700)
        #expect(stat(directory.logPath, &mode) == 0)
        #expect(mode.st_mode & 0o777 == 0o600)
    }

    @Test("every acknowledged change survives kill -9, and repeated commandIds write nothing")
    func killNine() async throws {
        let directory = TemporaryDataDirectory()
        let weatherd = try startWeatherd(directory)
        var acknowledged: [String: JSONValue] = [:]
        for index in 0..<20 {
            let response = try await weatherd.call(
                "favorites/add",
                [
                    "name": .string("Place \(index)"), "lat": .double(Double(index)), "lon": 1.5,
                    "commandId": .string("c-\(index)"),
                ])
            acknowledged["c-\(index)"] = response["result"]
        }
        weatherd.signal(SIGKILL)
        _ = await weatherd.waitForExit()

        let restarted = try startWeatherd(directory)
        let list = try await restarted.call("favorites/list")
        #expect(list["result"]?["favorites"]?.arrayValue?.count == 20)
        let before = try logEvents(directory).count
        for index in 0..<20 {
            let response = try await restarted.call(
                "favorites/add",
                [
                    "name": .string("Place \(index)"), "lat": .double(Double(index)), "lon": 1.5,
                    "commandId": .string("c-\(index)"),
                ])
            #expect(response["result"] == acknowledged["c-\(index)"])
        }
        #expect(try logEvents(directory).count == before, "a repeated commandId must write nothing")
        try restarted.closeInput()
        #expect(await restarted.waitForExit() == 0)
        try Repository.checkLog(directory.path)
    }

    @Test("a second instance on the same data dir exits non-zero at once, naming the data dir")
    func secondInstance() async throws {
        let directory = TemporaryDataDirectory()
        let first = try startWeatherd(directory)
        _ = try await first.call("service/status")
        let second = try startWeatherd(directory)
        // A second weatherd that waited for the lock would never exit while the first holds it: exiting
        // within the wait is "at once" (the time itself is weatherd-bench's business, not a test's).
        let status = await second.waitForExit()
        #expect(status != nil && status != 0)
        #expect(second.standardError.contains(directory.path))
        #expect(second.standardError.contains("pid \(first.pid)"))
        let stillServing = try await first.call("settings/get")
        #expect(stillServing["result"] != nil)
    }

    @Test("SIGTERM finishes in-flight work, records service.stopped and exits 0")
    func sigterm() async throws {
        let directory = TemporaryDataDirectory()
        let weatherd = try startWeatherd(directory)
        _ = try await weatherd.call("settings/set", ["units": "standard"])
        weatherd.signal(SIGTERM)
        #expect(await weatherd.waitForExit() == 0)
        let last = try #require(try logEvents(directory).last)
        #expect(last["type"] == "service.stopped")
        #expect(last["data"]?["reason"] == "signal")
    }
}

@Suite("weatherd end to end: a client that goes away")
struct ClosedStdoutTests {
    @Test("a closed stdout (EPIPE) ends the service cleanly with service.stopped")
    func closedStdout() async throws {
        let directory = TemporaryDataDirectory()
        let process = try TestProcess(
            RunningWeatherd.binaryPath,
            arguments: ["--standalone", "--data-dir", directory.path, "--log-level", "error"],
            environment: RunningWeatherd.environment([:]), standardInput: .pipe, standardOutput: .pipe)
        try process.output!.close()
        let request = #"{"jsonrpc":"2.0","id":1,"method":"settings/set","params":{"units":"imperial"}}"# + "\n"
        try process.input!.write(contentsOf: Data(request.utf8))
        #expect(await process.exit() == 0)
        let last = try #require(try logEvents(directory).last)
        #expect(last["type"] == "service.stopped")
        #expect(last["data"]?["reason"] == "stdout_closed")
        #expect(try logEvents(directory).contains { $0["type"] == "settings.changed" })
    }
}
