/// A torn tail: the bytes from `offset` to the end of the file, to be cut off.
package struct TornTail: Sendable, Equatable {
    package var offset: Int64
    package var length: Int64
    package var reason: LineProblem.Reason

    package init(offset: Int64, length: Int64, reason: LineProblem.Reason) {
        self.offset = offset
        self.length = length
        self.reason = reason
    }
}
