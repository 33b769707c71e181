extension EventCatalog {
    /// `alert.raised` v2 added the rules `official` and `air_quality` and the member `origin`; every v1 alert
    /// came from weatherd's own rules, so it gains `origin: "forecast"`. `alerts.configured` v2 added `official`
    /// and `airQuality`; a v1 payload gains their defaults then (on, and off at `poor`).
    static let alertUpcasters: [EventKind: Upcaster] = [
        EventKind("alert.raised", 1): Upcaster(to: 2) { data throws(FieldError) in
            guard case .object(var members) = data else {
                throw FieldError(path: "data", problem: "must be an object")
            }
            members["origin"] = "forecast"
            return .object(members)
        },
        EventKind("alerts.configured", 1): Upcaster(to: 2) { data throws(FieldError) in
            guard case .object(var members) = data else {
                throw FieldError(path: "data", problem: "must be an object")
            }
            members["official"] = true
            members["airQuality"] = ["enabled": false, "level": "poor"]
            return .object(members)
        },
    ]
}

extension EventCatalog {
    /// `location.changed` v2 and `location.cleared` v2 added the optional `source`, `accuracyM` and `zone` of a
    /// location weatherd found itself (`--auto-location`); a v1 payload is a location the client set, and
    /// reads as v2 unchanged.
    static let locationUpcasters: [EventKind: Upcaster] = [
        EventKind("location.changed", 1): Upcaster(to: 2) { data throws(FieldError) in data },
        EventKind("location.cleared", 1): Upcaster(to: 2) { data throws(FieldError) in data },
    ]
}
