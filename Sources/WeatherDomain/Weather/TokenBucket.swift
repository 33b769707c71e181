/// A token bucket: `capacity` calls at once, refilled evenly over `periodMs`.
///
/// Pure: the caller passes `now`, and learns how long to wait when the bucket is empty.
package struct TokenBucket: Sendable, Equatable {
    package let capacity: Double
    /// Milliseconds to refill one token.
    package let refillMs: Double
    private var tokens: Double
    private var updatedAt: Int64?

    /// A bucket allowing `perMinute` calls a minute, starting full.
    package init(perMinute: Int) {
        capacity = Double(max(1, perMinute))
        refillMs = 60_000 / capacity
        tokens = capacity
    }

    /// Takes a token if one is there; otherwise returns how many milliseconds until one is.
    package mutating func take(now: Timestamp) -> Int64 {
        let elapsed = Double(max(0, now.milliseconds - (updatedAt ?? now.milliseconds)))
        tokens = min(capacity, tokens + elapsed / refillMs)
        updatedAt = now.milliseconds
        guard tokens >= 1 else { return Int64(((1 - tokens) * refillMs).rounded(.up)) }
        tokens -= 1
        return 0
    }
}
