import Foundation
import Synchronization
import Testing
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherTesting

@Suite("A change's answer from where its sync completes")
struct DurableAnswerTests {
    @Test("a change carries its answer; it is delivered once, after its event is in the log, hooks first")
    func deliveredWhenDurable() async throws {
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(directory: directory)
        let completion = try await service.engine.changeSettings(
            SettingsEdit(units: .imperial), origin: Origin(cause: "test/rpc:1"))
        let durable = try #require(completion.durable, "a change with a known answer carries it")
        let seen = Mutex<[String]>([])
        let delivered = Latch()
        durable.before { _ in seen.withLock { $0.append("hook") } }.onDurable { outcome in
            // Runs on the log writer's thread once the batch is written and synced: the line is in the file.
            let log = (try? String(contentsOfFile: directory.path + "/events.jsonl", encoding: .utf8)) ?? ""
            let written = log.contains(#""cause":"test/rpc:1""#)
            seen.withLock { $0.append("answer \((try? outcome.get()) == durable.result) written \(written)") }
            delivered.open()
        }
        await delivered.wait()
        #expect(seen.withLock { $0 } == ["hook", "answer true written true"])
        #expect(durable.result.units == .imperial)
        #expect(try await completion() == durable.result, "the task path answers the same")
        #expect(try await service.result("settings/get")["units"]?.stringValue == "imperial")
        // Already durable: the delivery runs at once, on this thread.
        let again = Mutex(0)
        #expect(durable.onDurable { _ in again.withLock { $0 += 1 } })
        #expect(again.withLock { $0 } == 1)

        let unchanged = try await service.engine.changeSettings(
            SettingsEdit(units: .imperial), origin: Origin(cause: "test/rpc:2"))
        #expect(unchanged.durable == nil, "a change that writes nothing has no durable answer")
        #expect(try await unchanged().units == .imperial)
        await service.stop()
    }
}
