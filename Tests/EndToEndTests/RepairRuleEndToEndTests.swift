import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd end to end: start-up repairs only what a crash can tear")
struct RepairRuleEndToEndTests {
    /// The offset where each line of `bytes` starts.
    static func lineStarts(_ bytes: [UInt8]) -> [Int] {
        [0] + bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") && $0 + 1 < bytes.count }.map { $0 + 1 }
    }

    @Test("a bad checksum on the last 5 complete lines refuses start-up at the first of them, changing no byte")
    func lastFiveLinesDamaged() async throws {
        let directory = try await populatedDataDirectory(favorites: 6)
        var bytes = directory.logBytes()
        let starts = Self.lineStarts(bytes)
        let damaged = starts.suffix(5)
        for start in damaged { bytes[start + 20] ^= 0x01 }
        try directory.writeLog(bytes)
        let weatherd = try startWeatherd(directory)
        let status = await weatherd.waitForExit()
        #expect(status == 1)
        let first = try #require(damaged.first)
        let line = starts.count - 4
        #expect(weatherd.standardError.contains("line \(line) (seq \(line), byte offset \(first))"))
        #expect(directory.logBytes() == bytes)
        #expect(try !directory.fileNames().contains { $0.contains(".broken-") })
    }

    @Test("a deleted final newline keeps the intact last line: the newline is restored, nothing is dropped")
    func deletedFinalNewline() async throws {
        let directory = try await populatedDataDirectory(favorites: 3)
        let intact = directory.logBytes()
        try directory.writeLog(Array(intact.dropLast()))
        let weatherd = try startWeatherd(directory)
        let query = try await weatherd.call("events/query", ["types": ["log.recovered"]])
        #expect(query["result"]?["events"]?.arrayValue?.isEmpty == true)
        let list = try await weatherd.call("favorites/list")
        #expect(list["result"]?["favorites"]?.arrayValue?.count == 3)
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
        #expect(Array(directory.logBytes().prefix(intact.count)) == intact)
        #expect(try !directory.fileNames().contains { $0.contains(".broken-") })
        #expect(weatherd.standardError.contains("lacked its newline"))
        try Repository.checkLog(directory.path)
    }

    @Test("another program's JSON-lines file as events.jsonl refuses start-up as not a weatherd log")
    func foreignLog() async throws {
        let directory = TemporaryDataDirectory()
        var foreign: [UInt8] = []
        var index = 0
        while foreign.count < 61_890 {
            foreign += Array(#"{"level":"info","msg":"request \#(index) served","ms":\#(index % 97)}"#.utf8) + [10]
            index += 1
        }
        try directory.writeLog(foreign)
        let weatherd = try startWeatherd(directory)
        #expect(await weatherd.waitForExit() == 1)
        #expect(weatherd.standardError.contains("is not a weatherd log"))
        #expect(directory.logBytes() == foreign)
        #expect(try !directory.fileNames().contains { $0.contains(".broken-") })
    }

    @Test("a symlinked events.jsonl is refused, and the file it points to keeps every byte")
    func symlinkedLog() async throws {
        let source = try await populatedDataDirectory(favorites: 2)
        let target = source.root + "/elsewhere.jsonl"
        let bytes = source.logBytes() + Array(#"{"seq":99,"ts":"#.utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        try FileManager.default.removeItem(atPath: source.logPath)
        try FileManager.default.createSymbolicLink(atPath: source.logPath, withDestinationPath: target)
        let weatherd = try startWeatherd(source)
        #expect(await weatherd.waitForExit() == 1)
        #expect(weatherd.standardError.contains("symbolic link"))
        #expect(Array(try #require(FileManager.default.contents(atPath: target))) == bytes)
    }
}
