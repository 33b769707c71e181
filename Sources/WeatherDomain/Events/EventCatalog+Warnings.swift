extension EventCatalog {
    /// `warnings.fetched` v1 wrote each warning's `severity` in lower case (`severe`) where CAP, and v2, spell it
    /// as issued (`Severe`): a v1 payload is read with its severities spelt as CAP does, and nothing else
    /// changed. `alert.raised` v2 carried such a warning in an `official` alert's `details.warning`; v3 carries
    /// it as `warnings.fetched` v2 does. A v2 alert is read as v3 unchanged: an alert's details are kept as they
    /// were raised (the state replays to what it recorded), a recorded severity is read in any case of CAP's
    /// five (`WarningSeverity(recorded:)`: the de-duplication keys name it in lower case either way), and
    /// answers spell it as CAP does (`AlertText.details`).
    static let warningUpcasters: [EventKind: Upcaster] = [
        EventKind("warnings.fetched", 1): Upcaster(to: 2) { data throws(FieldError) in
            guard case .object(var members) = data else {
                throw FieldError(path: "data", problem: "must be an object")
            }
            if case .array(let warnings) = members["warnings"] ?? .null {
                members["warnings"] = .array(warnings.map(capSeverity))
            }
            return .object(members)
        },
        EventKind("alert.raised", 2): Upcaster(to: 3) { data throws(FieldError) in data },
    ]

    /// A recorded warning with its `severity` spelt as CAP does; a value that is not one of CAP's five is left
    /// for the decoder to refuse.
    private static func capSeverity(_ warning: JSONValue) -> JSONValue {
        guard case .object(var members) = warning, let text = members["severity"]?.stringValue,
            let severity = WarningSeverity(recorded: text)
        else { return warning }
        members["severity"] = .string(severity.cap)
        return .object(members)
    }
}
