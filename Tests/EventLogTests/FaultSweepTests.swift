import EventLog
import Foundation
import Testing
import WeatherDomain
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Fault sweeps")
struct FaultSweepTests {
    static func event(_ index: Int) -> NewEvent {
        NewEvent(
            type: "history.cleared", v: 1, cause: "sweep", corr: "c-\(index)",
            data: JSONValue.object(["count": .int(Int64(index))]).jsonBytes)
    }

    @Test("1,000 bit flips in random non-final lines: every one refused at the right line, seq and offset")
    func bitFlips() async throws {
        // A thousand writes and reads: on a thread of its own, so the cooperative pool stays free for other tests.
        try await onThread {
            let (log, starts) = RecoveryTests.log(40)
            let directory = TemporaryDataDirectory()
            var random = SeededGenerator(state: 1000)
            for _ in 0..<1000 {
                let line = Int.random(in: 0..<(starts.count - 1), using: &random)
                let end = starts[line + 1] - 1
                let at = Int.random(in: starts[line]..<end, using: &random)
                var damaged = log
                damaged[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
                try directory.writeLog(damaged)
                do {
                    _ = try LogReader.read(path: directory.logPath) { _, _ in true }
                    Issue.record("a flip at byte \(at) (line \(line + 1)) was not refused")
                } catch let damage as LogDamage {
                    #expect(damage.line == Int64(line + 1))
                    #expect(damage.seq == Int64(line + 1))
                    #expect(damage.offset == Int64(starts[line]))
                }
            }
        }
    }

    @Test("ENOSPC at every byte offset of a batch: no acknowledgement, the log cut back and valid, writes refused")
    func noSpaceAtEveryOffset() async throws {
        var sample: [UInt8] = []
        var chain: UInt32 = 0
        for index in 0..<3 {
            chain =
                EnvelopeCodec.encode(
                    seq: Int64(index + 2), ts: Timestamp(milliseconds: 0), event: Self.event(index),
                    previousChain: chain,
                    into: &sample
                ).chain
        }
        let directory = TemporaryDataDirectory()
        for partial in 0...sample.count {
            let file = FaultInjectingFile()
            let writer = LogWriter(
                file: file, position: .empty, mode: .always, runtime: .testing(), now: { Timestamp(milliseconds: 0) }
            ) {
                _ in
            }
            let running = Task { await writer.run() }
            _ = try await writer.append([Self.event(100)]).committed()
            let before = file.contents
            file.failAppend(.init(partialBytes: partial, errno: ENOSPC))
            await #expect(throws: StorageFailure.self) {
                try await writer.append((0..<3).map(Self.event)).committed()
            }
            #expect(file.contents == before, "cut back after \(partial) bytes")
            #expect(throws: StorageFailure.self) { try writer.append([Self.event(7)]) }
            writer.finish()
            await running.value
            try directory.writeLog(file.contents)
            let outcome = try LogReader.read(path: directory.logPath) { _, _ in true }
            #expect(outcome.tail == nil)
            #expect(outcome.lines == 1)
        }
    }
}
