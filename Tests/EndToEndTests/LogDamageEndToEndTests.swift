import EventLog
import Foundation
import Testing
import WeatherDomain
import WeatherTesting

@Suite("weatherd end to end: damage behind a snapshot is reported as log_damaged")
struct LogDamageEndToEndTests {
    /// A data dir whose log holds 2,000 valid events and a snapshot written at a clean shutdown, then a
    /// flipped byte in line 2 (before the snapshot, so start-up from it succeeds); returns its offset.
    static func damagedBehindSnapshot() async throws -> (TemporaryDataDirectory, offset: Int) {
        let directory = TemporaryDataDirectory()
        var bytes: [UInt8] = []
        var starts: [Int] = []
        var chain: UInt32 = 0
        for seq in 1...2000 {
            starts.append(bytes.count)
            let event = NewEvent(
                type: "settings.changed", v: 1, cause: "rpc:\(seq)", corr: nil,
                data: JSONValue.object(["units": seq % 2 == 0 ? "imperial" : "metric"]).jsonBytes)
            chain =
                EnvelopeCodec.encode(
                    seq: Int64(seq), ts: Timestamp(milliseconds: Int64(seq) * 1000), event: event,
                    previousChain: chain, into: &bytes
                ).chain
        }
        try directory.writeLog(bytes)
        let first = try startWeatherd(directory)
        try first.closeInput()
        let status = await first.waitForExit()
        guard status == 0 else {
            throw RunningWeatherdError(
                "weatherd did not exit cleanly (status \(status.map(String.init) ?? "none: still running")): "
                    + first.standardError)
        }
        var log = directory.logBytes()
        log[starts[1] + 20] ^= 0x01
        try directory.writeLog(log)
        return (directory, starts[1])
    }

    @Test("events/query, state/verify and service/status name the damage instead of an internal error")
    func queryAndVerify() async throws {
        let (directory, offset) = try await Self.damagedBehindSnapshot()
        let weatherd = try startWeatherd(directory)
        let status = try await weatherd.call("service/status")
        #expect(status["result"]?["startup"]?["snapshotSeq"] != .null, "started from the snapshot")
        #expect(status["result"]?["logDamage"] == nil)
        for method in ["events/query", "state/verify"] {
            let answer = try await weatherd.call(method, method == "events/query" ? ["afterSeq": 0] : nil)
            let error = try #require(answer["error"], "\(method)")
            #expect(error["code"] == 1010)
            #expect(error["data"]?["kind"] == "log_damaged")
            #expect(error["data"]?["file"] == .string(directory.logPath))
            #expect(error["data"]?["line"] == 2)
            #expect(error["data"]?["seq"] == 2)
            #expect(error["data"]?["offset"] == .int(Int64(offset)))
        }
        let after = try await weatherd.call("service/status")
        #expect(after["result"]?["logDamage"]?["seq"] == 2)
        #expect(after["result"]?["logDamage"]?["offset"] == .int(Int64(offset)))
        let recent = try await weatherd.call("events/query", ["afterSeq": 1990])
        #expect(recent["result"]?["events"]?.arrayValue?.isEmpty == false, "events after the damage still read")
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
    }

    @Test("a subscription whose catch-up hits the damage ends with events/error, not events/lagged")
    func subscription() async throws {
        let (directory, _) = try await Self.damagedBehindSnapshot()
        let weatherd = try startWeatherd(directory)
        let answer = try await weatherd.call("events/subscribe", ["afterSeq": 1])
        let id = try #require(answer["result"]?["subscriptionId"])
        let ended = { try weatherd.output.messages().first { $0["method"] == "events/error" } }
        #expect(try await eventually { try ended() != nil })
        let notification = try #require(try ended())
        #expect(notification["params"]?["subscriptionId"] == id)
        #expect(notification["params"]?["error"]?["data"]?["kind"] == "log_damaged")
        #expect(notification["params"]?["error"]?["data"]?["seq"] == 2)
        #expect(try !weatherd.output.messages().contains { $0["method"] == "events/lagged" })
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
    }
}
