import EventLog
import Foundation
import Testing
import WeatherDomain
import WeatherRuntime
import WeatherService
import WeatherTesting

@testable import WeatherEngine

/// Compaction of `weather.fetched` keeps a stripped forecast's days, each reduced to its date, low, high,
/// condition, chance and amount of precipitation; everything else of the report goes as before.
@Suite("Payload retention keeps the daily summaries of a stripped forecast")
struct LogRetentionDaysTests {
    /// The fields of a day that a stripped forecast keeps.
    static let dayFields: Set<String> = ["date", "min", "max", "condition", "pop", "precipitation"]

    /// The lines of the log's sealed segments, in order, without their newlines.
    static func segmentLines(_ directory: String) throws -> [[UInt8]] {
        let files = try LogFiles.list(directory: directory)
        return try files.segments.flatMap { first in
            Array(try Data(contentsOf: URL(fileURLWithPath: files.path(ofSegment: first)))).split(separator: 10)
                .map { Array($0) }
        }
    }

    /// A data dir whose one sealed segment holds a fetch for each of `events`, written two months before
    /// `LogRetentionTests.now`, 1 s apart (each is given its time).
    static func log(_ events: [(Timestamp) -> WeatherFetched]) throws -> TemporaryDataDirectory {
        let directory = TemporaryDataDirectory()
        try DataDirectory(path: directory.path).create()
        var bytes: [UInt8] = []
        var chain: UInt32 = 0
        for (index, event) in events.enumerated() {
            let ts = Timestamp(
                milliseconds: LogRetentionTests.now.milliseconds - 60 * 86_400_000 + Int64(index) * 1_000)
            chain =
                EnvelopeCodec.encode(
                    seq: Int64(index + 1), ts: ts,
                    event: NewEvent(.weatherFetched(event(ts)), cause: "timer:refresh", corr: nil),
                    previousChain: chain, into: &bytes
                ).chain
        }
        try Data(bytes).write(to: URL(fileURLWithPath: directory.path + "/" + LogFiles.segmentName(1)))
        return directory
    }

    /// A current-weather fetch for Berlin at `at`.
    static func current(_ at: Timestamp) -> WeatherFetched {
        let place = Place(name: nil, country: nil, state: nil, lat: 52.52, lon: 13.41)
        let call = UpstreamCall(
            provider: "open-meteo", url: "https://api.open-meteo.com/v1/forecast?latitude=52.52&longitude=13.41",
            status: 200, latencyMs: 120, bytes: 702, attempt: 1, at: at)
        return WeatherFetched(
            key: place.key, call: call,
            report: .current(
                CurrentReport(
                    place: place, timezone: "Europe/Berlin", utcOffsetSeconds: 3_600,
                    current: CurrentConditions(observedAt: at, temperature: 6.1, condition: .wmo(3)))))
    }

    /// A 16-day Open-Meteo forecast at `at` whose first day has no precipitation figures and whose second
    /// has no amount.
    static func sparseForecast(_ at: Timestamp) -> WeatherFetched {
        var fetched = LogGenerator(mix: .dashboard, start: at).forecast(place: 0)
        if case .forecast(var report) = fetched.report {
            report.daily[0].pop = nil
            report.daily[0].precipitation = nil
            report.daily[1].precipitation = nil
            fetched.report = .forecast(report)
        }
        return fetched
    }

    @Test(
        "a stripped forecast keeps the date, low, high, condition, chance and amount of precipitation of every day, as written, and nothing else of its report"
    )
    func strippedForecastKeepsDays() async throws {
        try await onThread {
            let directory = try LogRetentionTests.oldLog()
            let before = try LogRetentionTests.envelopes(directory.path)
            let state = try LogRetentionTests.state(directory.path)
            let report = try LogMaintenance.compact(
                directory: directory.path, retainPayloads: .seconds(30 * 86_400), now: LogRetentionTests.now)
            #expect(report.eventsStripped > 0)
            #expect(try LogRetentionTests.state(directory.path) == state, "replay reaches the same state")
            let after = try LogRetentionTests.envelopes(directory.path)
            #expect(after.count == before.count)
            var stripped = 0
            for (old, new) in zip(before, after) where new.data != old.data {
                stripped += 1
                let original = try #require(try old.decodedData().objectValue)
                let kept = try #require(try new.decodedData().objectValue)
                let compacted = try #require(kept["compacted"])
                #expect(compacted["members"] == ["entries", "hourly"], "removed wholly")
                #expect(compacted["reduced"] == ["daily"])
                #expect(compacted["sha256"] == .string(SHA256.hex(old.data)))
                #expect(compacted["bytes"] == .int(Int64(old.data.count)))
                #expect(kept["current"] == nil && kept["entries"] == nil && kept["hourly"] == nil)
                let days = try #require(original["daily"]?.arrayValue)
                let reduced = try #require(kept["daily"]?.arrayValue)
                #expect(days.count == 16)
                #expect(reduced.count == days.count)
                let originalText = String(decoding: old.data, as: UTF8.self)
                let keptText = String(decoding: new.data, as: UTF8.self)
                for (day, short) in zip(days, reduced) {
                    let full = try #require(day.objectValue)
                    #expect(full["uvIndex"] != nil && full["sunrise"] != nil && full["sunset"] != nil)
                    #expect(short == .object(full.filter { Self.dayFields.contains($0.key) }))
                    // The kept fields sort before `sunrise`, `sunset` and `uvIndex`: the reduced day's bytes are
                    // the original day's up to them.
                    #expect(keptText.contains(short.jsonString))
                    #expect(originalText.contains(String(short.jsonString.dropLast()) + ",\"sunrise\":"))
                }
                var rest = kept
                rest["compacted"] = nil
                rest["daily"] = nil
                var audit = original
                for name in WeatherFetched.payloadMembers { audit[name] = nil }
                #expect(rest == audit, "every other member is kept as it was")
            }
            #expect(Int64(stripped) == report.eventsStripped)
            #expect(LogRetentionTests.verify(directory.path).code == 0)
            try LogCheck(schemasDirectory: LogRetentionTests.schemas).check(dataDirectory: directory.path)
        }
    }

    @Test(
        "a stripped current fetch keeps its reading (time, temperature, precipitation, condition) and nothing else of its report; a day's absent fields stay absent"
    )
    func currentAndSparseDays() async throws {
        try await onThread {
            let directory = try Self.log([
                Self.current, Self.sparseForecast, Self.current,
                { LogGenerator(mix: .dashboard, start: $0).forecast(place: 0) },
                Self.current,
            ])
            let before = try LogRetentionTests.envelopes(directory.path)
            let state = try LogRetentionTests.state(directory.path)
            let report = try LogMaintenance.compact(
                directory: directory.path, retainPayloads: .seconds(30 * 86_400), now: LogRetentionTests.now)
            #expect(report.eventsStripped == 2, "the replaced forecast (seq 2) and current fetch (seq 3)")
            #expect(try LogRetentionTests.state(directory.path) == state)
            let after = try LogRetentionTests.envelopes(directory.path)
            #expect(zip(before, after).filter { $0.data != $1.data }.map(\.0.seq) == [2, 3])

            var current = try #require(try before[2].decodedData().objectValue)
            var keptCurrent = try #require(try after[2].decodedData().objectValue)
            let compacted = keptCurrent.removeValue(forKey: "compacted")
            #expect(
                compacted
                    == [
                        "bytes": .int(Int64(before[2].data.count)), "members": [], "reduced": ["current"],
                        "sha256": .string(SHA256.hex(before[2].data)),
                    ], "the reading is kept reduced, nothing removed wholly")
            let reading = try #require(current["current"]?.objectValue)
            #expect(
                keptCurrent["current"]
                    == .object(
                        reading.filter { ["observedAt", "temperature", "precipitation", "condition"].contains($0.key) })
            )
            keptCurrent["current"] = nil
            current["current"] = nil
            #expect(keptCurrent == current, "no daily, nothing else of the report")

            let days = try #require(try after[1].decodedData()["daily"]?.arrayValue)
            #expect(days.count == 16)
            #expect(days[0].objectValue?.keys.sorted() == ["condition", "date", "max", "min"])
            #expect(days[1].objectValue?.keys.sorted() == ["condition", "date", "max", "min", "pop"])
            #expect(days[2].objectValue?.keys.sorted() == ["condition", "date", "max", "min", "pop", "precipitation"])
            #expect(LogRetentionTests.verify(directory.path).code == 0)
            try LogCheck(schemasDirectory: LogRetentionTests.schemas).check(dataDirectory: directory.path)
        }
    }

    @Test(
        "a log compacted by the old rule (no daily kept) stays as it is and still reads and verifies; the segments compacted later keep the days"
    )
    func oldRule() async throws {
        try await onThread {
            let directory = try LogRetentionTests.oldLog()
            let state = try LogRetentionTests.state(directory.path)
            let now = LogRetentionTests.now
            let oldRules = LogMaintenance.rules.map { rule in
                var old = rule
                old.reducedMembers = [:]
                return old
            }
            let first = try SegmentCompactor.compact(
                directory: directory.path, rules: oldRules,
                cutoff: Timestamp(milliseconds: now.milliseconds - 30 * 86_400_000), now: now, maxSegments: 3)
            #expect(first.segmentsCompacted == 3)
            let oldSegments = try LogManifest.read(directory: directory.path).compacted.keys.sorted()
            let files = try LogFiles.list(directory: directory.path)
            let oldBytes = try oldSegments.map { try Data(contentsOf: URL(fileURLWithPath: files.path(ofSegment: $0))) }
            #expect(try LogRetentionTests.state(directory.path) == state)

            let second = try LogMaintenance.compact(
                directory: directory.path, retainPayloads: .seconds(30 * 86_400), now: now)
            #expect(second.eventsStripped > 0)
            #expect(
                try oldSegments.map { try Data(contentsOf: URL(fileURLWithPath: files.path(ofSegment: $0))) }
                    == oldBytes, "lines compacted before are left as they are")
            #expect(try LogRetentionTests.state(directory.path) == state, "both forms replay to the same state")
            var forms: [String: Int] = [:]
            for envelope in try LogRetentionTests.envelopes(directory.path) {
                let data = try envelope.decodedData()
                guard let compacted = data["compacted"] else { continue }
                if compacted["reduced"] == nil {
                    #expect(compacted["members"] == ["daily", "entries", "hourly"])
                    #expect(data["daily"] == nil)
                    forms["old", default: 0] += 1
                } else {
                    #expect(data["daily"]?.arrayValue?.count == 16)
                    forms["new", default: 0] += 1
                }
            }
            #expect(forms["old"] == Int(first.eventsStripped))
            #expect(forms["new"] == Int(second.eventsStripped))
            #expect(LogRetentionTests.verify(directory.path).code == 0)
            try LogCheck(schemasDirectory: LogRetentionTests.schemas).check(dataDirectory: directory.path)
            let again = try LogMaintenance.compact(
                directory: directory.path, retainPayloads: .seconds(30 * 86_400), now: now)
            #expect(again.eventsStripped == 0, "an old-form line is not stripped again")
        }
    }

    @Test("a stripped 16-day Open-Meteo forecast line is under 3.5 KB (3,267 bytes measured, of about 43 KB whole)")
    func strippedLineSize() async throws {
        try await onThread {
            let directory = try LogRetentionTests.oldLog()
            let whole = try Self.segmentLines(directory.path).filter {
                String(decoding: $0, as: UTF8.self).contains("\"type\":\"weather.fetched\"")
            }
            _ = try LogMaintenance.compact(directory: directory.path, retainPayloads: .zero, now: LogRetentionTests.now)
            let stripped = try Self.segmentLines(directory.path).filter {
                String(decoding: $0, as: UTF8.self).contains("\"compacted\":{")
            }
            #expect(stripped.count > 20)
            let largest = stripped.map(\.count).max() ?? 0
            #expect(largest + 1 < 3_500, "\(largest + 1) bytes")
            #expect((whole.map(\.count).min() ?? 0) > 35_000)
        }
    }
}
