import Synchronization
import Testing
import WeatherTesting

/// The hang guards themselves: a wait that is never satisfied gives up, one that is satisfied says so.
@Suite("Hang guards: a wait that never ends gives up; a condition that comes true is seen")
struct HangGuardTests {
    @Test("withHangGuard gives up with nil on a body that never returns, and passes a body's answer on")
    func guarded() async {
        let never: Int? = await withHangGuard(.milliseconds(50)) {
            try? await Task.sleep(for: .seconds(3600))
            return 1
        }
        #expect(never == nil)
        #expect(await withHangGuard { 7 } == 7)
    }

    @Test("eventually is false for a condition never true, and true once one becomes true")
    func eventuallyAnswers() async {
        #expect(await eventually(.milliseconds(50)) { false } == false)
        let asked = Mutex(0)
        let third = await eventually {
            asked.withLock { count in
                count += 1
                return count >= 3
            }
        }
        #expect(third)
        #expect(asked.withLock { $0 } == 3, "asked again until it held, then no more")
    }
}
