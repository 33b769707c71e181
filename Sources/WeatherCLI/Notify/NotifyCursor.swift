import WeatherDomain

/// Where `weatherd notify` stands in the data dir's log: the last event it handled, and the official warnings
/// it shows, with the ids the notification server gave them, so that a restart neither shows anything again
/// nor loses the notifications it must still replace or close.
struct NotifyCursor: Sendable, Equatable {
    /// One official warning's thread of messages (the first message and its updates) that is shown.
    struct Thread: Sendable, Equatable {
        /// The notification server's id for it; 0 when nothing is on the desktop (`--exec` alone).
        var notificationId: UInt32
        /// `nws`, `meteoalarm`, `brightsky` or `fpas`.
        var source: String
        /// The key of the warnings fetch that carries it (a place's key for NWS and Bright Sky, a country for
        /// MeteoAlarm, a CAP document's id for the FOSS Public Alert Server); nil until one fetch has been seen
        /// with it.
        var area: String?
        /// The ids of its messages: the first, and every update of it seen.
        var messageIds: Set<String>
        /// When it stops being in force (the warning's `ends`, else its `expires`).
        var until: Timestamp
    }

    /// The seq of the last event handled; 0 before the first.
    var seq: Int64 = 0
    /// The threads shown and in force, by their first message's id.
    var threads: [String: Thread] = [:]

    var json: JSONValue {
        .object([
            "seq": .int(seq),
            "threads": .array(
                threads.keys.sorted().compactMap { first in
                    guard let thread = threads[first] else { return nil }
                    var object: [String: JSONValue] = [
                        "firstId": .string(first), "notificationId": .int(Int64(thread.notificationId)),
                        "source": .string(thread.source),
                        "messageIds": .array(thread.messageIds.sorted().map { .string($0) }),
                        "until": .string(thread.until.description),
                    ]
                    if let area = thread.area { object["area"] = .string(area) }
                    return .object(object)
                }),
        ])
    }

    init() {}

    init(json: JSONValue) throws(FieldError) {
        let reader = try FieldReader(json, path: "cursor")
        seq = try reader.int("seq")
        guard case .array(let items) = reader.members["threads"] ?? .array([]) else {
            throw FieldError(path: "cursor.threads", problem: "must be an array")
        }
        for (index, item) in items.enumerated() {
            let thread = try FieldReader(item, path: "cursor.threads[\(index)]")
            let id = try thread.int("notificationId")
            guard let notificationId = UInt32(exactly: id) else {
                throw FieldError(path: "cursor.threads[\(index)].notificationId", problem: "is out of range")
            }
            threads[try thread.string("firstId")] = Thread(
                notificationId: notificationId, source: try thread.string("source"),
                area: try thread.optionalString("area"),
                messageIds: Set(try thread.optionalStrings("messageIds") ?? []), until: try thread.timestamp("until"))
        }
    }
}
