import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd log verify|dump|stats, end to end")
struct LogToolsEndToEndTests {
    /// Runs `weatherd log …` and returns its exit status and stdout lines.
    static func tool(_ arguments: [String]) async throws -> (status: Int32, lines: [JSONValue]) {
        let run = try await runCommand(["log"] + arguments)
        let lines = try run.output.split(separator: "\n").map { try JSONValue.parse(Array($0.utf8)) }
        return (run.status, lines)
    }

    @Test("they read a live data dir without the lock and change no byte")
    func live() async throws {
        let directory = TemporaryDataDirectory()
        let weatherd = try startWeatherd(directory)
        try await addFavorites(weatherd, 0..<5)
        _ = try await weatherd.call("settings/set", ["units": "imperial"])
        let before = directory.logBytes()
        let verify = try await Self.tool(["verify", "--data-dir", directory.path])
        #expect(verify.status == 0)
        #expect(verify.lines.first?["ok"] == true)
        #expect(verify.lines.first?["lastSeq"] == 7)
        let dump = try await Self.tool([
            "dump", "--data-dir", directory.path, "--type", "favorite.added", "--after-seq", "3",
        ])
        #expect(dump.status == 0)
        #expect(dump.lines.map { $0["seq"] } == [4, 5, 6])
        let stats = try await Self.tool(["stats", "--data-dir", directory.path])
        #expect(stats.lines.first?["types"]?["favorite.added"] == 5)
        #expect(stats.lines.first?["first"]?["seq"] == 1)
        #expect(stats.lines.first?["last"]?["seq"] == 7)
        #expect(directory.logBytes() == before)
        let stillServing = try await weatherd.call("favorites/list")
        #expect(stillServing["result"]?["favorites"]?.arrayValue?.count == 5)
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
    }

    @Test("verify names the file, line, seq and offset of the first problem, and exits 1")
    func damage() async throws {
        let directory = TemporaryDataDirectory()
        let weatherd = try startWeatherd(directory)
        try await addFavorites(weatherd, 0..<4)
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
        var bytes = directory.logBytes()
        let starts = [0] + bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
        bytes[starts[2] + 40] ^= 0x02
        try directory.writeLog(bytes)
        let verify = try await Self.tool(["verify", "--data-dir", directory.path])
        #expect(verify.status == 1)
        let report = try #require(verify.lines.first)
        #expect(report["ok"] == false)
        #expect(report["line"] == 3)
        #expect(report["seq"] == 3)
        #expect(report["offset"] == .int(Int64(starts[2])))
        #expect(report["file"]?.stringValue?.hasSuffix("events.jsonl") == true)
        #expect(directory.logBytes() == bytes)
    }

    @Test(
        "weatherd-check-log: --help exits 0; from the repository's root it validates data, elsewhere the format alone")
    func checkLog() async throws {
        let binary = URL(fileURLWithPath: RunningWeatherd.binaryPath).deletingLastPathComponent()
            .appendingPathComponent("weatherd-check-log").path
        let help = try await runCommand(["--help"], executable: binary)
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("usage: weatherd-check-log"), "\(help.output)")
        #expect(try await runCommand([], executable: binary).status == 2)

        let directory = TemporaryDataDirectory()
        let weatherd = try startWeatherd(directory)
        try await addFavorites(weatherd, 0..<3)
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
        let root = Repository.root.path
        let inRepository = try await runCommand([directory.path], executable: binary, directory: root)
        #expect(inRepository.status == 0, "\(inRepository.output)")
        let validated = try JSONValue.parse(Array(inRepository.output.utf8))
        #expect(validated["ok"] == true)
        #expect(validated["types"]?["favorite.added"] == 3)
        #expect(validated["schemas"] == "Events/schemas")
        let elsewhere = try await runCommand([directory.path], executable: binary, directory: directory.path)
        let formatOnly = try JSONValue.parse(Array(elsewhere.output.utf8))
        #expect(formatOnly["ok"] == true)
        #expect(formatOnly["schemas"] == .null)

        var bytes = directory.logBytes()
        bytes[bytes.count / 2] ^= 0x02
        try directory.writeLog(bytes)
        let damaged = try await runCommand([directory.path], executable: binary, directory: directory.path)
        #expect(damaged.status == 1)
        #expect(try JSONValue.parse(Array(damaged.output.utf8))["ok"] == false)
    }
}
