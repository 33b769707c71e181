/// A slice of weatherd's state: a pure fold over events.
///
/// `apply` is total (an event that does not concern the slice leaves it unchanged), does no I/O and
/// reads no clock, so replay at start-up and live operation reach the same state.
package protocol StateSlice: Sendable, Equatable {
    init()
    mutating func apply(_ event: DomainEvent)
    /// The canonical form, used for digests and for comparing live with replayed state.
    var json: JSONValue { get }
}
