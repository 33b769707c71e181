import WeatherRuntime

extension Runtime {
    /// One event loop and one blocking pool for every test in the process, each test with its own clock: the
    /// loop and the pool keep no time of their own, so sharing them couples no test to another.
    private static let shared: Runtime = {
        do {
            return try Runtime.started()
        } catch {
            fatalError("the tests' event loop cannot start: \(error)")
        }
    }()

    /// The tests' loop and pool on `clock`.
    package static func testing(clock: any RuntimeClock = SystemClock()) -> Runtime { shared.with(clock: clock) }
}
