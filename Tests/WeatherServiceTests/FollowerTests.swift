import Synchronization
import Testing
import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherTesting

@Suite("Followers of the log never skip")
struct FollowerTests {
    /// What a follower was handed, told of each hand-over.
    final class Seen: Sendable {
        private let seqs = Mutex<[Int64]>([])
        private let arrivals = WaitQueue<Void>()

        var all: [Int64] { seqs.withLock { $0 } }

        func append(_ seq: Int64) {
            seqs.withLock { $0.append(seq) }
            arrivals.resumeAll(())
        }

        /// Waits (behind a hang guard) until the follower was handed `seq`.
        func reach(_ seq: Int64) async -> Bool {
            await withHangGuard { [self] in
                while all.last.map({ $0 < seq }) ?? true {
                    let arrived: Void? = await arrivals.wait { (self.all.last ?? 0) >= seq ? () : nil }
                    guard arrived != nil else { return nil }
                }
                return true
            } ?? false
        }
    }

    @Test("a follower stalled behind 10× the bus's capacity is handed every event once, in order, then live")
    func stalledFollower() async throws {
        let directory = TemporaryDataDirectory()
        let service = try InProcessWeatherd(directory: directory, followerCapacity: 4)
        let follower = service.engine.follower
        let start = follower.lastSeq
        let gate = Latch()
        let seen = Seen()
        let (control, _) = service.engine.bus.subscribe(capacity: 4)
        let following = Task {
            try await follower.follow(after: start) { envelope in
                await gate.wait()
                seen.append(envelope.seq)
            }
        }
        for number in 0..<40 {
            _ = try await service.result(
                "favorites/add", ["name": .string("Place \(number)"), "lat": .double(Double(number)), "lon": 10])
        }
        let stalledUntil = follower.lastSeq
        #expect(stalledUntil - start >= 40, "ten times the capacity went by")
        var controlMessages: [EventBus.Message] = []
        while let message = await control.next() { controlMessages.append(message) }
        #expect(controlMessages.contains { if case .lagged = $0 { true } else { false } }, "a plain subscriber lags")

        gate.open()
        #expect(await seen.reach(stalledUntil))
        _ = try await service.result("favorites/add", ["name": "Live", "lat": 50, "lon": 10])
        #expect(await seen.reach(follower.lastSeq), "it rejoined the bus and follows live")
        #expect(seen.all == Array((start + 1)...follower.lastSeq), "every event once, in seq order")
        following.cancel()
        try await following.value
        await service.stop()
    }
}
