import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd end to end: repair and refusal at start-up")
struct RecoveryEndToEndTests {
    @Test("a torn last line is cut off, kept in a .broken copy and audited as log.recovered")
    func tornTail() async throws {
        let directory = try await populatedDataDirectory(favorites: 3)
        let intact = directory.logBytes()
        let torn = Array(#"{"seq":99,"ts":"2026-11-22T"#.utf8)
        try directory.writeLog(intact + torn)
        let weatherd = try startWeatherd(directory)
        let query = try await weatherd.call("events/query", ["types": ["log.recovered"]])
        let recovered = try #require(query["result"]?["events"]?.arrayValue?.first)
        #expect(recovered["data"]?["droppedBytes"] == .int(Int64(torn.count)))
        #expect(recovered["data"]?["offset"] == .int(Int64(intact.count)))
        #expect(recovered["data"]?["reason"] == "no_newline")
        let list = try await weatherd.call("favorites/list")
        #expect(list["result"]?["favorites"]?.arrayValue?.count == 3)
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
        #expect(try directory.fileNames().contains { $0.hasPrefix("events.jsonl.broken-") })
        try Repository.checkLog(directory.path)
    }

    @Test("damage in a middle line refuses start-up, names line, seq and offset, and changes no byte")
    func middleDamage() async throws {
        let directory = try await populatedDataDirectory(favorites: 3)
        var bytes = directory.logBytes()
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let secondStart = lines[0].count + 1
        bytes[secondStart + 30] ^= 0x01
        try directory.writeLog(bytes)
        let weatherd = try startWeatherd(directory)
        let status = await weatherd.waitForExit()
        #expect(status != nil && status != 0)
        let message = weatherd.standardError
        #expect(message.contains("events.jsonl"))
        #expect(message.contains("line 2"))
        #expect(message.contains("seq 2"))
        #expect(message.contains("byte offset \(secondStart)"))
        #expect(directory.logBytes() == bytes)
    }
}
