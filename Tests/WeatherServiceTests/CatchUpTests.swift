import Foundation
import Synchronization
import Testing
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherService
import WeatherTesting

@Suite("Event feed catch-up")
struct CatchUpTests {
    @Test("a catch-up waits for the subscriber's room between chunks, then sends every event once, in order")
    func catchUpWaitsForRoom() async throws {
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(directory: directory, fsync: .never)
        var batch: [UInt8] = [UInt8(ascii: "[")]
        for index in 0..<2500 {
            if index > 0 { batch.append(UInt8(ascii: ",")) }
            batch += Array(
                #"{"jsonrpc":"2.0","id":\#(index),"method":"settings/set","params":{"units":"\#(index % 2 == 0 ? "imperial" : "metric")"}}"#
                    .utf8)
        }
        batch.append(UInt8(ascii: "]"))
        await service.receive(batch)
        #expect(await service.output.wait(for: 1))
        let sent = Mutex<[Int64]>([])
        let rooms = Mutex(0)
        let gate = Latch()
        let feed = Task {
            await service.engine.feedEvents(afterSeq: 0, types: nil) {
                rooms.withLock { $0 += 1 }
                await gate.wait()
            } caughtUp: { _ in
            } send: { event in
                sent.withLock { $0.append(event["seq"]?.intValue ?? -1) }
            }
        }
        #expect(await eventually { rooms.withLock { $0 } == 1 })
        #expect(sent.withLock { $0.count } == 1000, "one chunk, then it waits for room (held by the gate)")
        gate.open()
        #expect(await eventually { sent.withLock { $0.count } == 2500 })
        #expect(sent.withLock { $0 } == Array(1...2500))
        feed.cancel()
        #expect(await feed.value == .cancelled)
        await service.stop()
    }

}
