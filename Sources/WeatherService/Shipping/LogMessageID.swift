/// The `Nats-Msg-Id` a shipped event carries, `<log id>-<seq>`: written by the shipper, read by the shipper's
/// resume and hole checks and by `restore`.
enum LogMessageID {
    static let header = "Nats-Msg-Id"

    /// The id of event `seq` of log `logID`.
    static func of(logID: String, seq: Int64) -> String { "\(logID)-\(seq)" }
}

extension JetStream.StoredMessage {
    /// The message's `Nats-Msg-Id` as sent ("" when it has none).
    var logMessageID: String { headers?[LogMessageID.header] ?? "" }

    /// The seq of log `logID`'s event this message carries; nil when its id is not of that log.
    func seq(ofLog logID: String) -> Int64? {
        let id = logMessageID
        let prefix = logID + "-"
        guard id.hasPrefix(prefix) else { return nil }
        return Int64(id.dropFirst(prefix.count))
    }
}
