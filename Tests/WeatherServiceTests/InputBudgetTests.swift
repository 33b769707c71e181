import Foundation
import Synchronization
import Testing
import WeatherEngine
import WeatherService

@Suite("Input budget")
struct InputBudgetTests {
    /// Takes lines of `size` bytes on a thread of its own; counts how many it got.
    final class Taker: Sendable {
        let taken = Mutex(0)

        init(_ budget: InputBudget, lines: Int, size: Int) {
            let thread = Thread { [self] in
                for _ in 0..<lines {
                    budget.take(bytes: size)
                    taken.withLock { $0 += 1 }
                }
            }
            thread.start()
        }

        /// The count once it has stopped changing for 200 ms.
        func settled() async throws -> Int {
            var last = -1
            while true {
                let now = taken.withLock { $0 }
                if now == last { return now }
                last = now
                try await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    @Test("lines of 1 MiB are held by bytes: the 17th waits for one to be given back")
    func bytes() async throws {
        let budget = InputBudget(maxLines: 1024, maxBytes: 16 << 20)
        let taker = Taker(budget, lines: 20, size: 1 << 20)
        #expect(try await taker.settled() == 16)
        budget.give(bytes: 1 << 20)
        #expect(try await taker.settled() == 17)
    }

    @Test("small lines are held by count")
    func lines() async throws {
        let budget = InputBudget(maxLines: 8, maxBytes: 16 << 20)
        let taker = Taker(budget, lines: 10, size: 100)
        #expect(try await taker.settled() == 8)
        budget.give(bytes: 100)
        budget.give(bytes: 100)
        #expect(try await taker.settled() == 10)
    }

    @Test("a line larger than the whole budget passes when nothing else is held")
    func oversized() async throws {
        let budget = InputBudget(maxLines: 8, maxBytes: 1 << 20)
        let taker = Taker(budget, lines: 2, size: 4 << 20)
        #expect(try await taker.settled() == 1)
        budget.give(bytes: 4 << 20)
        #expect(try await taker.settled() == 2)
    }
}
