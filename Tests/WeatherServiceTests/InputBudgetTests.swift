import Foundation
import Synchronization
import Testing
import WeatherEngine
import WeatherService
import WeatherTesting

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

        /// Whether the taker comes to hold exactly `count` lines and waits there for the budget (or, at the
        /// last line, is done): false only from the hang guard, as when it took more or fewer.
        func holds(_ count: Int, of lines: Int, by budget: InputBudget) async -> Bool {
            await eventually {
                taken.withLock { $0 } == count && (count == lines || budget.waitingTakers == 1)
            }
        }
    }

    @Test("lines of 1 MiB are held by bytes: the 17th waits for one to be given back")
    func bytes() async throws {
        let budget = InputBudget(maxLines: 1024, maxBytes: 16 << 20)
        let taker = Taker(budget, lines: 20, size: 1 << 20)
        #expect(await taker.holds(16, of: 20, by: budget))
        budget.give(bytes: 1 << 20)
        #expect(await taker.holds(17, of: 20, by: budget))
    }

    @Test("small lines are held by count")
    func lines() async throws {
        let budget = InputBudget(maxLines: 8, maxBytes: 16 << 20)
        let taker = Taker(budget, lines: 10, size: 100)
        #expect(await taker.holds(8, of: 10, by: budget))
        budget.give(bytes: 100)
        budget.give(bytes: 100)
        #expect(await taker.holds(10, of: 10, by: budget))
    }

    @Test("a line larger than the whole budget passes when nothing else is held")
    func oversized() async throws {
        let budget = InputBudget(maxLines: 8, maxBytes: 1 << 20)
        let taker = Taker(budget, lines: 2, size: 4 << 20)
        #expect(await taker.holds(1, of: 2, by: budget))
        budget.give(bytes: 4 << 20)
        #expect(await taker.holds(2, of: 2, by: budget))
    }
}
