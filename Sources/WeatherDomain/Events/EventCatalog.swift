/// Turns a logged `(type, v, data)` back into a `DomainEvent`, upcasting old versions first.
///
/// An upcaster is a pure function from one version's payload to the next version's, keyed by the
/// old `(type, v)`. A log written by any released version therefore replays in every later one.
package struct EventCatalog: Sendable {
    /// Rewrites a payload of one version into the payload of `to`.
    package struct Upcaster: Sendable {
        package var to: Int
        package var transform: @Sendable (JSONValue) throws(FieldError) -> JSONValue

        package init(to: Int, transform: @escaping @Sendable (JSONValue) throws(FieldError) -> JSONValue) {
            self.to = to
            self.transform = transform
        }
    }

    /// The upcasters by the version they read.
    package var upcasters: [EventKind: Upcaster]

    package init(upcasters: [EventKind: Upcaster] = [:]) { self.upcasters = upcasters }

    /// The catalog of this build: `alert.raised` v1 and `alerts.configured` v1 are read as v2 (see
    /// `EventCatalog+V2.swift`), `location.changed` v1 and `location.cleared` v1 as v2, and `warnings.fetched` v1
    /// as v2 and `alert.raised` v2 as v3 (see `EventCatalog+Warnings.swift`).
    package static let standard = EventCatalog(
        upcasters: alertUpcasters.merging(locationUpcasters) { first, _ in first }
            .merging(warningUpcasters) { first, _ in first })

    /// The outcome of decoding one logged event.
    package enum Outcome: Sendable, Equatable {
        case event(DomainEvent)
        /// A type or version this build does not know: kept in the log, skipped in state.
        case unknown(EventKind)
    }

    /// Decodes a logged event.
    ///
    /// - Throws: `FieldError` when a known type's payload does not match its schema.
    package func decode(type: String, version: Int, data: JSONValue) throws(FieldError) -> Outcome {
        var kind = EventKind(type, version)
        var data = data
        var steps = 0
        while let upcaster = upcasters[kind], steps < 100 {
            data = try upcaster.transform(data)
            kind = EventKind(type, upcaster.to)
            steps += 1
        }
        if let event = try DomainEvent.decodeCurrent(kind, data: data) { return .event(event) }
        return .unknown(kind)
    }
}
