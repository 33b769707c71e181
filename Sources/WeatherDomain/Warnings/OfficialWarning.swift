/// One official weather warning as a national weather service issued it, in one language.
///
/// Read from a CAP message (NWS alerts, MeteoAlarm feeds). A CAP message in two languages gives
/// two values with the same `id`; `WarningRules.active` keeps one. The texts (`headline`,
/// `description`, `instruction`) are the sender's, unmodified: weatherd never rewords a warning.
/// Times are instants (the sender's offset is not kept).
package struct OfficialWarning: Sendable, Equatable {
    /// Who published the warning to weatherd.
    package enum Source: String, Sendable, Equatable, CaseIterable {
        /// The US National Weather Service (api.weather.gov).
        case nws
        /// MeteoAlarm (EUMETNET), which relays Europe's national services.
        case meteoalarm
    }

    /// What the message does to earlier ones: CAP's `msgType` (NWS: `messageType`).
    package enum MessageType: String, Sendable, Equatable, CaseIterable {
        /// A new warning.
        case alert
        /// Replaces the messages in `replaces`.
        case update
        /// Withdraws the messages in `replaces`; never shown itself.
        case cancel

        /// The message type of a CAP value (`Alert`, `Update`, `Cancel`) in any case; nil for others
        /// (`Ack`, `Error`), which carry no warning.
        package init?(cap text: String) {
            self.init(rawValue: text.trimmingWhitespace.lowercased())
        }
    }

    /// The CAP identifier of the message.
    package var id: String
    package var source: Source
    /// The issuing service's name (CAP `senderName`), or its sender address when it gives no name.
    package var sender: String
    /// The hazard, e.g. `Excessive Heat Warning`, as the sender names it.
    package var event: String
    package var severity: WarningSeverity
    /// CAP certainty as sent (`Observed`, `Likely`, `Possible`, `Unlikely`, `Unknown`).
    package var certainty: String
    /// CAP urgency as sent (`Immediate`, `Expected`, `Future`, `Past`, `Unknown`).
    package var urgency: String
    /// When the message was sent; orders an update after what it replaces.
    package var sent: Timestamp
    /// When the hazard is expected to begin, when the sender says.
    package var onset: Timestamp?
    /// When the message expires.
    ///
    /// NWS may set it before `onset` (it plans to reissue the message); see `activeUntil`.
    package var expires: Timestamp
    /// When the hazard is expected to end (NWS `ends`), when the sender says.
    package var ends: Timestamp?
    package var headline: String?
    package var description: String?
    package var instruction: String?
    /// The language tag of the texts, e.g. `en-US`, `bs`.
    package var language: String
    /// The ids of the earlier messages this one updates or cancels.
    package var replaces: [String]
    /// The areas' names as the sender wrote them (NWS zones, MeteoAlarm regions).
    package var areaNames: [String]
    /// The areas' codes: NWS UGC zone codes, MeteoAlarm `EMMA_ID`s.
    package var areaIds: [String]
    package var messageType: MessageType

    package init(
        id: String, source: Source, sender: String, event: String, severity: WarningSeverity, certainty: String,
        urgency: String, sent: Timestamp, onset: Timestamp? = nil, expires: Timestamp, ends: Timestamp? = nil,
        headline: String? = nil, description: String? = nil, instruction: String? = nil, language: String,
        replaces: [String] = [], areaNames: [String] = [], areaIds: [String] = [], messageType: MessageType = .alert
    ) {
        self.id = id
        self.source = source
        self.sender = sender
        self.event = event
        self.severity = severity
        self.certainty = certainty
        self.urgency = urgency
        self.sent = sent
        self.onset = onset
        self.expires = expires
        self.ends = ends
        self.headline = headline
        self.description = description
        self.instruction = instruction
        self.language = language
        self.replaces = replaces
        self.areaNames = areaNames
        self.areaIds = areaIds
        self.messageType = messageType
    }

    /// Until when the warning is shown: `ends` when the sender gives it, else `expires`.
    ///
    /// `ends` wins even when it is earlier than `expires` (the hazard is over), and even when it
    /// is later: NWS sets `expires` to when it means to reissue the message, which can fall before
    /// the hazard even begins (an excessive heat warning expiring at 03:00 with onset at 10:00),
    /// and hiding a warning for a hazard still to come would be the worse mistake.
    package var activeUntil: Timestamp { ends ?? expires }

    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(id), "source": .string(source.rawValue), "sender": .string(sender),
            "event": .string(event), "severity": .string(severity.rawValue), "certainty": .string(certainty),
            "urgency": .string(urgency), "sent": .string(sent.description), "expires": .string(expires.description),
            "language": .string(language), "replaces": .array(replaces.map(JSONValue.string)),
            "areaNames": .array(areaNames.map(JSONValue.string)), "areaIds": .array(areaIds.map(JSONValue.string)),
            "messageType": .string(messageType.rawValue),
        ]
        if let onset { object["onset"] = .string(onset.description) }
        if let ends { object["ends"] = .string(ends.description) }
        if let headline { object["headline"] = .string(headline) }
        if let description { object["description"] = .string(description) }
        if let instruction { object["instruction"] = .string(instruction) }
        return .object(object)
    }

    package init(json: JSONValue, path: String) throws(FieldError) {
        let r = try FieldReader(json, path: path)
        guard let source = try r.choice("source", as: Source.self) else {
            throw FieldError(path: "\(path).source", problem: "is required")
        }
        guard let severity = try r.choice("severity", as: WarningSeverity.self) else {
            throw FieldError(path: "\(path).severity", problem: "is required")
        }
        guard let messageType = try r.choice("messageType", as: MessageType.self) else {
            throw FieldError(path: "\(path).messageType", problem: "is required")
        }
        self.init(
            id: try r.string("id"), source: source, sender: try r.string("sender"), event: try r.string("event"),
            severity: severity, certainty: try r.string("certainty"), urgency: try r.string("urgency"),
            sent: try r.timestamp("sent"), onset: try r.optionalTimestamp("onset"), expires: try r.timestamp("expires"),
            ends: try r.optionalTimestamp("ends"), headline: try r.optionalString("headline"),
            description: try r.optionalString("description"), instruction: try r.optionalString("instruction"),
            language: try r.string("language"), replaces: try r.optionalStrings("replaces") ?? [],
            areaNames: try r.optionalStrings("areaNames") ?? [], areaIds: try r.optionalStrings("areaIds") ?? [],
            messageType: messageType)
    }
}
