import Synchronization

/// A callback set from any thread and read often: the one way to keep a closure behind a lock.
///
/// Not `Mutex<(() -> Void)?>`: a `Mutex` whose value is itself a closure re-wraps it in a reabstraction thunk
/// each time `withLock`'s `inout` hands it out and takes it back, so a closure read for every line grows without
/// end, and every call goes through all the layers. Here the closure is a field of a struct, which the `inout`
/// leaves as it is.
package final class CallbackSlot<Callback: Sendable>: Sendable {
    private struct Held: Sendable { var callback: Callback? }
    private let held = Mutex(Held())

    package init() {}

    /// The callback set last; nil before any.
    package var callback: Callback? { held.withLock { $0.callback } }

    /// Sets the callback, in place of any before it.
    package func set(_ callback: Callback) { held.withLock { $0.callback = callback } }
}
