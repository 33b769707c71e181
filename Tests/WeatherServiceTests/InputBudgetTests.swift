import Foundation
import Synchronization
import Testing
import WeatherService

@Suite("Input budget")
struct InputBudgetTests {
    @Test("lines of 1 MiB are held by bytes: the 17th waits for one to be given back")
    func bytes() {
        let budget = InputBudget(maxLines: 1024, maxBytes: 16 << 20)
        for _ in 0..<16 {
            #expect(budget.allows(bytes: 1 << 20))
            budget.take(bytes: 1 << 20)
        }
        #expect(!budget.allows(bytes: 1 << 20))
        #expect(budget.allows(bytes: 0), "a line over the limit holds no bytes, but still counts")
        budget.give(bytes: 1 << 20)
        #expect(budget.allows(bytes: 1 << 20))
    }

    @Test("the listener is called at the same stack depth the thousandth time as the first (it is not re-wrapped)")
    func listenerDoesNotGrow() {
        let budget = InputBudget(maxLines: 8, maxBytes: 1 << 20)
        let depths = Mutex<[Int]>([])
        budget.onGiveBack { depths.withLock { $0.append(Thread.callStackReturnAddresses.count) } }
        for _ in 0..<1000 {
            budget.take(bytes: 10)
            budget.give(bytes: 10)
        }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 1000)
        #expect(seen.first == seen.last, "depth \(seen.first ?? 0) at the first call, \(seen.last ?? 0) at the last")
    }

    @Test("small lines are held by count")
    func lines() {
        let budget = InputBudget(maxLines: 8, maxBytes: 16 << 20)
        for _ in 0..<8 { budget.take(bytes: 100) }
        #expect(!budget.allows(bytes: 100))
        budget.give(bytes: 100)
        #expect(budget.allows(bytes: 100))
    }

    @Test("a line larger than the whole budget passes when nothing else is held, and only then")
    func oversized() {
        let budget = InputBudget(maxLines: 8, maxBytes: 1 << 20)
        #expect(budget.allows(bytes: 4 << 20))
        budget.take(bytes: 4 << 20)
        #expect(!budget.allows(bytes: 4 << 20))
        #expect(!budget.allows(bytes: 1))
        budget.give(bytes: 4 << 20)
        #expect(budget.allows(bytes: 4 << 20))
    }

    @Test("every give-back is told to the listener (the input reads on)")
    func listener() {
        let budget = InputBudget(maxLines: 1, maxBytes: 100)
        let told = Mutex(0)
        budget.onGiveBack { told.withLock { $0 += 1 } }
        budget.take(bytes: 10)
        budget.give(bytes: 10)
        budget.take(bytes: 10)
        budget.give(bytes: 10)
        #expect(told.withLock { $0 } == 2)
    }
}
