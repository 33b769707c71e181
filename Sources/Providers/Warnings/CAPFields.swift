import WeatherDomain

/// Reading the CAP (Common Alerting Protocol) members NWS, MeteoAlarm, Bright Sky and CAP documents share.
enum CAPFields {
    /// Whether a message with this `status` is a real warning; `Exercise`, `System`, `Test` and
    /// `Draft` messages are never shown, so decoders leave them out.
    static func isActual(_ status: String?) -> Bool {
        // NWS and MeteoAlarm always send it; a message without one is read as real rather than lost.
        guard let status else { return true }
        return status.trimmingWhitespace.lowercased() == "actual"
    }

    /// The message type; nil for `Ack` and `Error`, which carry no warning and are left out.
    static func messageType(_ reader: FieldReader, _ key: String) throws(FieldError) -> OfficialWarning.MessageType? {
        let text = try reader.string(key)
        switch text.trimmingWhitespace.lowercased() {
        case "ack", "error": return nil
        default:
            guard let type = OfficialWarning.MessageType(cap: text) else {
                throw FieldError(
                    path: "\(reader.path).\(key)", problem: "must be Alert, Update, Cancel, Ack or Error")
            }
            return type
        }
    }

    /// The identifiers of CAP `references`: space-separated `sender,identifier,sent` triples.
    static func referencedIDs(_ text: String?, path: String) throws(FieldError) -> [String] {
        guard let text else { return [] }
        var ids: [String] = []
        for triple in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }) {
            let parts = triple.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 3, !parts[1].isEmpty else {
                throw FieldError(path: path, problem: "must be CAP references such as sender,identifier,sent")
            }
            ids.append(String(parts[1]))
        }
        return ids
    }

    /// A CAP time, which always carries its offset (`2024-07-18T12:47:00-07:00`).
    static func time(_ reader: FieldReader, _ key: String) throws(FieldError) -> Timestamp {
        guard let time = try optionalTime(reader, key) else {
            throw FieldError(path: "\(reader.path).\(key)", problem: "is required")
        }
        return time
    }

    static func optionalTime(_ reader: FieldReader, _ key: String) throws(FieldError) -> Timestamp? {
        guard let text = try reader.optionalString(key) else { return nil }
        guard let time = Timestamp(rfc3339: text) else {
            throw FieldError(
                path: "\(reader.path).\(key)",
                problem: "must be a time with an offset such as 2024-07-18T12:47:00-07:00")
        }
        return time
    }
}
