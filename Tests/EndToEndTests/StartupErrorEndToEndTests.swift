import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd end to end: a refused start answers one JSON-RPC error line")
struct StartupErrorEndToEndTests {
    /// The one line a refused start wrote on stdout.
    static func errorLine(_ weatherd: RunningWeatherd) async throws -> JSONValue {
        #expect(await weatherd.waitForExit() == 1)
        let messages = try weatherd.output.messages()
        #expect(messages.count == 1)
        let line = try #require(messages.first)
        #expect(line["jsonrpc"] == "2.0")
        #expect(line["id"] == .null)
        return try #require(line["error"])
    }

    @Test("a second weatherd on a locked data dir writes a data_dir_in_use error with id null, then exits 1")
    func secondInstance() async throws {
        let directory = TemporaryDataDirectory()
        let first = try startWeatherd(directory)
        _ = try await first.call("service/status")
        let second = try startWeatherd(directory)
        let error = try await Self.errorLine(second)
        #expect(error["code"] == 1011)
        #expect(error["data"]?["kind"] == "data_dir_in_use")
        #expect(error["message"]?.stringValue?.contains(directory.path) == true)
        try first.closeInput()
        #expect(await first.waitForExit() == 0)
    }

    @Test("a data dir that cannot be opened writes a storage_failure error with id null")
    func unusableDataDir() async throws {
        let directory = TemporaryDataDirectory()
        let file = directory.root + "/not-a-directory"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let weatherd = try RunningWeatherd(arguments: ["--standalone", "--data-dir", file, "--log-level", "warning"])
        let error = try await Self.errorLine(weatherd)
        #expect(error["code"] == 1003)
        #expect(error["data"]?["kind"] == "storage_failure")
    }

    @Test("a damaged log writes a log_damaged error naming file, line, seq and offset")
    func damagedLog() async throws {
        let directory = try await populatedDataDirectory(favorites: 2)
        var bytes = directory.logBytes()
        let second = try #require(bytes.firstIndex(of: UInt8(ascii: "\n"))) + 1
        bytes[second + 20] ^= 0x01
        try directory.writeLog(bytes)
        let weatherd = try startWeatherd(directory)
        let error = try await Self.errorLine(weatherd)
        #expect(error["code"] == 1010)
        #expect(error["data"]?["kind"] == "log_damaged")
        #expect(error["data"]?["file"] == .string(directory.logPath))
        #expect(error["data"]?["line"] == 2)
        #expect(error["data"]?["seq"] == 2)
        #expect(error["data"]?["offset"] == .int(Int64(second)))
    }
}
