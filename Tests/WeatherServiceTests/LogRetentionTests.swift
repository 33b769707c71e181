import EventLog
import Foundation
import Testing
import WeatherDomain
import WeatherRuntime
import WeatherService
import WeatherTesting

@testable import WeatherEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Segments and payload retention")
struct LogRetentionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let schemas = root.appendingPathComponent("Events/schemas").path

    static func state(_ directory: String) throws -> [UInt8] {
        try Replay.run(directory: directory, commandWindow: 100_000).state.json.jsonBytes
    }

    static func envelopes(_ directory: String) throws -> [EventEnvelope] {
        var all: [EventEnvelope] = []
        _ = try LogReader.read(directory: directory) { envelope, _ in
            all.append(envelope)
            return true
        }
        return all
    }

    static func verify(_ directory: String) -> (code: Int32, output: JSONValue?) {
        var lines: [String] = []
        let code = LogTools.run(["verify", "--data-dir", directory], environment: [:]) { lines.append($0) }
        return (code, lines.last.flatMap { try? JSONValue.parse(Array($0.utf8)) })
    }

    /// A mixed log of `count` events written two months ago, 1 s apart, in segments of 128 KiB (about three forecasts each).
    static func oldLog(_ count: Int = 1200, now: Timestamp = now) throws -> TemporaryDataDirectory {
        let directory = TemporaryDataDirectory()
        try LogGenerator.write(
            mix: .mixed, count: count, to: directory.path, segmentBytes: 128 << 10,
            start: Timestamp(milliseconds: now.milliseconds - 60 * 86_400_000))
        return directory
    }

    static let now = Timestamp(milliseconds: 1_800_000_000_000)

    @Test("through the engine: query, subscribe from seq 1, verify and a restart read across many segments")
    func engineAcrossSegments() async throws {
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(directory: directory, segmentBytes: 2048)
        for index in 0..<60 {
            _ = try await service.result(
                "favorites/add", ["name": .string("Place \(index)"), "lat": .int(Int64(index)), "lon": 1])
        }
        let status = try await service.result("service/status")
        let lastSeq = try #require(status["lastSeq"]?.intValue)
        #expect((status["segments"]?.intValue ?? 0) >= 4, "60 favorites at 2 KiB a segment")
        var seqs: [Int64] = []
        var cursor: JSONValue = .int(0)
        while true {
            var params: [String: JSONValue] = ["limit": 7]
            if case .string = cursor { params["cursor"] = cursor } else { params["afterSeq"] = cursor }
            let page = try await service.result("events/query", .object(params))
            seqs += page["events"]?.arrayValue?.compactMap { $0["seq"]?.intValue } ?? []
            guard let next = page["nextCursor"] else { break }
            cursor = next
        }
        #expect(seqs == Array(1...lastSeq))
        _ = try await service.result("events/subscribe", ["afterSeq": 0])
        func pushed() throws -> [Int64] {
            try service.output.messages().filter { $0["method"] == "events/event" }.compactMap {
                $0["params"]?["seq"]?.intValue
            }
        }
        #expect(try await eventually { try pushed().count >= Int(lastSeq) })
        #expect(try pushed() == Array(1...lastSeq))
        #expect(try await service.result("state/verify")["ok"] == true)
        await service.stop()
        let reopened = try InProcessWeatherd(directory: directory, segmentBytes: 2048)
        #expect(try await reopened.result("favorites/list")["favorites"]?.arrayValue?.count == 60)
        await reopened.stop()
        try LogCheck(schemasDirectory: Self.schemas).check(dataDirectory: directory.path)
        #expect(Self.verify(directory.path).code == 0)
    }

    @Test(
        "compaction keeps every audit fact and the state, strips only replaced payloads, and verifies",
        arguments: [600, 1200, 2400])
    func compaction(count: Int) async throws {
        try await onThread {
            let directory = try Self.oldLog(count)
            let before = try Self.envelopes(directory.path)
            let state = try Self.state(directory.path)
            let bytesBefore = try LogFiles.list(directory: directory.path).bytes
            let report = try LogMaintenance.compact(
                directory: directory.path, retainPayloads: .seconds(30 * 86_400), now: Self.now)
            #expect(report.segmentsCompacted >= 1)
            #expect(report.eventsStripped > 0)
            #expect(try Self.state(directory.path) == state, "replay reaches the same state")
            let after = try Self.envelopes(directory.path)
            #expect(after.count == before.count)
            let files = try LogFiles.list(directory: directory.path)
            #expect(report.bytesAfter < report.bytesBefore)
            #expect(files.bytes == bytesBefore - report.bytesBefore + report.bytesAfter)
            // The last fetch of each of the 50 places keeps its payload.
            var lastFetch: [String: Int64] = [:]
            for envelope in before where envelope.type == "weather.fetched" {
                lastFetch[try envelope.decodedData()["key"]?.stringValue ?? ""] = envelope.seq
            }
            var stripped = 0
            for (old, new) in zip(before, after) {
                #expect(old.seq == new.seq && old.ts == new.ts && old.type == new.type && old.v == new.v)
                #expect(old.cause == new.cause && old.corr == new.corr && old.chain == new.chain)
                guard new.data != old.data else { continue }
                stripped += 1
                #expect(new.type == "weather.fetched")
                var original = try #require(try old.decodedData().objectValue)
                var kept = try #require(try new.decodedData().objectValue)
                let compacted = kept.removeValue(forKey: "compacted") ?? .null
                #expect(compacted["sha256"] == .string(SHA256.hex(old.data)))
                #expect(compacted["bytes"] == .int(Int64(old.data.count)))
                #expect(compacted["members"] == ["entries", "hourly"])
                #expect(compacted["reduced"] == ["daily"])
                #expect(kept["daily"]?.arrayValue?.count == original["daily"]?.arrayValue?.count)
                for name in WeatherFetched.payloadMembers { original[name] = nil }
                kept["daily"] = nil
                #expect(kept == original, "every audit fact, the place and the time zone are kept as they were")
                #expect(lastFetch[original["key"]?.stringValue ?? ""] != old.seq, "the last fetch of a place is kept")
            }
            #expect(Int64(stripped) == report.eventsStripped)
            #expect(Self.verify(directory.path).code == 0)
            try LogCheck(schemasDirectory: Self.schemas).check(dataDirectory: directory.path)
            // Nothing is left to do a second time.
            let again = try LogMaintenance.compact(
                directory: directory.path, retainPayloads: .seconds(30 * 86_400), now: Self.now)
            #expect(again.eventsStripped == 0)
        }
    }

    @Test("a segment's first line and payloads younger than --retain-payloads stay; 0 compacts all that is replaced")
    func retentionWindow() async throws {
        try await onThread {
            let directory = try Self.oldLog()
            let young = try LogMaintenance.compact(
                directory: directory.path, retainPayloads: .seconds(90 * 86_400), now: Self.now)
            #expect(young.eventsStripped == 0, "every event is 60 days old")
            let all = try LogMaintenance.compact(directory: directory.path, retainPayloads: .zero, now: Self.now)
            #expect(all.eventsStripped > 0)
            let files = try LogFiles.list(directory: directory.path)
            for first in files.segments {
                let line = try #require(
                    Data(contentsOf: URL(fileURLWithPath: files.path(ofSegment: first))).split(separator: 10).first)
                #expect(!String(decoding: line, as: UTF8.self).contains("\"compacted\""), "first lines stay as written")
            }
        }
    }

    @Test(
        "the golden logs compact (as sealed segments) to a log that replays to the same state",
        arguments: ["v1-weather.jsonl", "v1-alerts.jsonl", "v1-core.jsonl", "v2-official.jsonl"])
    func goldenCompaction(log: String) async throws {
        try await onThread {
            let directory = TemporaryDataDirectory()
            try DataDirectory(path: directory.path).create()
            let golden = Self.root.appendingPathComponent("Events/golden/" + log)
            try FileManager.default.copyItem(
                atPath: golden.path, toPath: directory.path + "/" + LogFiles.segmentName(1))
            let state = try Self.state(directory.path)
            let stateFromGolden = try Replay.run(path: golden.path, commandWindow: 100_000).state.json.jsonBytes
            #expect(state == stateFromGolden)
            _ = try LogMaintenance.compact(directory: directory.path, retainPayloads: .zero, now: Self.now)
            #expect(try Self.state(directory.path) == state)
            #expect(Self.verify(directory.path).code == 0)
            try LogCheck(schemasDirectory: Self.schemas).check(dataDirectory: directory.path)
        }
    }

    @Test(
        "a crash at any step of compaction leaves a log that verifies and replays to the same state",
        arguments: CompactionStep.allCases)
    func crashAtEveryStep(step: CompactionStep) async throws {
        try await onThread {
            struct Crash: Error {}
            let directory = try Self.oldLog()
            let state = try Self.state(directory.path)
            #expect(throws: Crash.self) {
                try LogMaintenance.compact(directory: directory.path, retainPayloads: .zero, now: Self.now) { at, _ in
                    if at == step { throw Crash() }
                }
            }
            let verified = Self.verify(directory.path)
            #expect(verified.code == 0, "\(verified.output?.jsonString ?? "")")
            #expect(try Self.state(directory.path) == state)
            try LogCheck(schemasDirectory: Self.schemas).check(dataDirectory: directory.path)
            let resumed = try LogMaintenance.compact(directory: directory.path, retainPayloads: .zero, now: Self.now)
            #expect(resumed.eventsStripped > 0)
            #expect(try Self.state(directory.path) == state)
            #expect(Self.verify(directory.path).code == 0)
            #expect(
                !(try FileManager.default.contentsOfDirectory(atPath: directory.path)).contains {
                    $0.hasSuffix(".compacting")
                })
        }
    }

    @Test("log verify checks the manifest's links and checksums of a compacted segment")
    func manifestChecked() async throws {
        try await onThread {
            let directory = try Self.oldLog()
            _ = try LogMaintenance.compact(directory: directory.path, retainPayloads: .zero, now: Self.now)
            var manifest = try LogManifest.read(directory: directory.path)
            let first = try #require(manifest.compacted.keys.sorted().dropFirst().first)
            let pristine = manifest
            manifest.compacted[first]?.previousChain ^= 1
            try manifest.write(directory: directory.path)
            let broken = Self.verify(directory.path)
            #expect(broken.code == 1)
            #expect(broken.output?["file"]?.stringValue?.hasSuffix(LogFiles.segmentName(first)) == true)

            try pristine.write(directory: directory.path)
            #expect(Self.verify(directory.path).code == 0)
            let path = directory.path + "/" + LogFiles.segmentName(first)
            chmod(path, 0o600)
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            bytes.append(contentsOf: bytes.suffix(1))  // one byte more: neither the copy nor the original
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(Self.verify(directory.path).code == 1)
            #expect(throws: LogCheck.Problem.self) {
                try LogCheck(schemasDirectory: Self.schemas).check(dataDirectory: directory.path)
            }
        }
    }

    @Test("log verify of a folder that does not exist or holds no log exits 1 saying so")
    func verifyNothing() throws {
        let missing = Self.verify("/nonexistent/weatherd-\(getpid())")
        #expect(missing.code == 1)
        #expect(missing.output?["ok"] == false)
        #expect(missing.output?["error"]?.stringValue?.contains("no data dir") == true)
        let empty = TemporaryDataDirectory()
        try DataDirectory(path: empty.path).create()
        let none = Self.verify(empty.path)
        #expect(none.code == 1)
        #expect(none.output?["error"]?.stringValue?.contains("holds no weatherd log") == true)
    }

    @Test("log compact runs on a stopped data dir and is refused on one in use")
    func compactCommand() async throws {
        let (directory, code, lines) = try await onThread {
            let directory = try Self.oldLog(now: SystemClock().timestamp())
            var lines: [String] = []
            let code = LogTools.run(
                ["compact", "--data-dir", directory.path, "--retain-payloads", "30d"], environment: [:]
            ) {
                lines.append($0)
            }
            return (directory, code, lines)
        }
        #expect(code == 0)
        let report = try JSONValue.parse(Array((lines.last ?? "").utf8))
        #expect((report["eventsStripped"]?.intValue ?? 0) > 0)
        let bad = LogTools.run(
            ["compact", "--data-dir", directory.path, "--retain-payloads", "30 days"], environment: [:]
        ) { _ in }
        #expect(bad == 2)
        let service = try InProcessWeatherd(directory: directory)
        var refused: [String] = []
        #expect(LogTools.run(["compact", "--data-dir", directory.path], environment: [:]) { refused.append($0) } == 1)
        #expect(refused.last?.contains("in use") == true)
        await service.stop()
    }

    @Test("reads answered from the cache append nothing: one event per upstream call")
    func cachedReadsWriteNothing() async throws {
        let network = InMemoryTransport()
        network.route(
            "/v1/search", InMemoryTransport.ok(OpenMeteoBodies.geocode([("Berlin", "DE", "Berlin", 52.52, 13.41)])))
        network.route("/v1/forecast", InMemoryTransport.ok(OpenMeteoBodies.current(temperature: 4)))
        try await InProcessWeatherd.with(network: network) { service in
            _ = try await service.result("weather/current", ["city": "Berlin"])
            let first = try #require(try await service.result("service/status")["lastSeq"]?.intValue)
            for _ in 0..<20 {
                _ = try await service.result("weather/current", ["city": "Berlin"])
                _ = try await service.result("weather/current", ["lat": 52.52, "lon": 13.41])
            }
            #expect(try await service.result("service/status")["lastSeq"]?.intValue == first)
        }
    }
}
