import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd log verify|dump|stats, end to end")
struct LogToolsEndToEndTests {
    /// Runs `weatherd log …` and returns its exit status and stdout lines.
    static func tool(_ arguments: [String]) throws -> (status: Int32, lines: [JSONValue]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RunningWeatherd.binaryPath)
        process.arguments = ["log"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = try data.split(separator: UInt8(ascii: "\n")).map { try JSONValue.parse($0) }
        return (process.terminationStatus, lines)
    }

    @Test("they read a live data dir without the lock and change no byte")
    func live() async throws {
        let directory = TemporaryDataDirectory()
        let weatherd = try startWeatherd(directory)
        try await addFavorites(weatherd, 0..<5)
        _ = try await weatherd.call("settings/set", ["units": "imperial"])
        let before = directory.logBytes()
        let verify = try Self.tool(["verify", "--data-dir", directory.path])
        #expect(verify.status == 0)
        #expect(verify.lines.first?["ok"] == true)
        #expect(verify.lines.first?["lastSeq"] == 7)
        let dump = try Self.tool(["dump", "--data-dir", directory.path, "--type", "favorite.added", "--after-seq", "3"])
        #expect(dump.status == 0)
        #expect(dump.lines.map { $0["seq"] } == [4, 5, 6])
        let stats = try Self.tool(["stats", "--data-dir", directory.path])
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
        let verify = try Self.tool(["verify", "--data-dir", directory.path])
        #expect(verify.status == 1)
        let report = try #require(verify.lines.first)
        #expect(report["ok"] == false)
        #expect(report["line"] == 3)
        #expect(report["seq"] == 3)
        #expect(report["offset"] == .int(Int64(starts[2])))
        #expect(report["file"]?.stringValue?.hasSuffix("events.jsonl") == true)
        #expect(directory.logBytes() == bytes)
    }
}
