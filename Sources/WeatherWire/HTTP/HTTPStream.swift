/// A streamed answer's body (Server-Sent Events): written after the head, a piece at a time, until `body`
/// returns, the client goes, or the service stops (the task running `body` is then cancelled). The connection
/// closes after it.
package struct HTTPStream: Sendable {
    package let body: @Sendable (any HTTPStreamSink) async -> Void

    package init(_ body: @escaping @Sendable (any HTTPStreamSink) async -> Void) { self.body = body }
}

/// Where a streamed body goes.
package protocol HTTPStreamSink: Sendable {
    /// Queues `bytes` as the body's next piece.
    func write(_ bytes: [UInt8])

    /// Returns true once the client has taken enough of what is queued to be sent more; false when it has
    /// gone, or has taken nothing for the connection's timeout: the body should then end.
    func room() async -> Bool
}
