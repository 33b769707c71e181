/// A torn tail: the bytes from `offset` to the end of the file, to be cut off.
public struct TornTail: Sendable, Equatable {
    public var offset: Int64
    public var length: Int64
    public var reason: LineProblem.Reason

    public init(offset: Int64, length: Int64, reason: LineProblem.Reason) {
        self.offset = offset
        self.length = length
        self.reason = reason
    }
}
