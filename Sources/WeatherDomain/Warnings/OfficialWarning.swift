/// One official weather warning as a national weather service issued it, in one language.
///
/// Read from a CAP message (NWS alerts, MeteoAlarm feeds, Bright Sky's DWD warnings, CAP documents from the
/// FOSS Public Alert Server). A CAP message in two languages gives two values with the same `id`;
/// `WarningRules.active` keeps one. The texts (`headline`, `description`, `instruction`) are the sender's,
/// unmodified: weatherd never rewords a warning. Times are instants (the sender's offset is not kept).
package struct OfficialWarning: Sendable, Equatable {
    /// Who published the warning to weatherd.
    package enum Source: String, Sendable, Equatable, CaseIterable {
        /// The US National Weather Service (api.weather.gov).
        case nws
        /// MeteoAlarm (EUMETNET), which relays Europe's national services.
        case meteoalarm
        /// Bright Sky (api.brightsky.dev), which serves the Deutscher Wetterdienst's warnings by municipality.
        case brightsky
        /// KDE's FOSS Public Alert Server, which relays national services' CAP feeds worldwide.
        case fpas
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
    /// When the warning takes effect, when the sender says (CAP `effective`).
    package var effective: Timestamp?
    /// When the hazard is expected to begin, when the sender says.
    package var onset: Timestamp?
    /// When the message expires, when the sender says (CAP makes it optional; NWS and MeteoAlarm always give it).
    ///
    /// NWS may set it before `onset` (it plans to reissue the message); see `activeUntil`.
    package var expires: Timestamp?
    /// When the hazard is expected to end (NWS `ends`), when the sender says.
    package var ends: Timestamp?
    package var headline: String?
    package var description: String?
    package var instruction: String?
    /// The sender's page about the warning (CAP `web`).
    package var web: String?
    /// The language tag of the texts, e.g. `en-US`, `bs`.
    package var language: String
    /// The ids of the earlier messages this one updates or cancels.
    package var replaces: [String]
    /// The areas' names as the sender wrote them (NWS zones, MeteoAlarm regions, CAP `areaDesc`).
    package var areaNames: [String]
    /// The areas' codes: NWS UGC zone codes, MeteoAlarm `EMMA_ID`s, a CAP document's geocodes, DWD's warn cell.
    package var areaIds: [String]
    package var messageType: MessageType
    /// CAP `responseType`s as sent (`Prepare`, `Monitor`, `AllClear`, …); empty when the sender gives none.
    package var responseTypes: [String]
    /// The areas' polygons and circles (CAP documents only; empty when the sender gave only names or codes).
    package var shapes: WarningShapes

    package init(
        id: String, source: Source, sender: String, event: String, severity: WarningSeverity, certainty: String,
        urgency: String, sent: Timestamp, effective: Timestamp? = nil, onset: Timestamp? = nil, expires: Timestamp?,
        ends: Timestamp? = nil, headline: String? = nil, description: String? = nil, instruction: String? = nil,
        web: String? = nil, language: String, replaces: [String] = [], areaNames: [String] = [],
        areaIds: [String] = [], messageType: MessageType = .alert, responseTypes: [String] = [],
        shapes: WarningShapes = WarningShapes()
    ) {
        self.id = id
        self.source = source
        self.sender = sender
        self.event = event
        self.severity = severity
        self.certainty = certainty
        self.urgency = urgency
        self.sent = sent
        self.effective = effective
        self.onset = onset
        self.expires = expires
        self.ends = ends
        self.headline = headline
        self.description = description
        self.instruction = instruction
        self.web = web
        self.language = language
        self.replaces = replaces
        self.areaNames = areaNames
        self.areaIds = areaIds
        self.messageType = messageType
        self.responseTypes = responseTypes
        self.shapes = shapes
    }

    /// Until when the warning is shown: `ends` when the sender gives it, else `expires`; nil when it gives
    /// neither (then it is shown while its source carries it).
    ///
    /// `ends` wins even when it is earlier than `expires` (the hazard is over), and even when it
    /// is later: NWS sets `expires` to when it means to reissue the message, which can fall before
    /// the hazard even begins (an excessive heat warning expiring at 03:00 with onset at 10:00),
    /// and hiding a warning for a hazard still to come would be the worse mistake.
    package var activeUntil: Timestamp? { ends ?? expires }

    /// Whether the warning has not ended at `now` (one without an end has not).
    package func inForce(at now: Timestamp) -> Bool { activeUntil.map { now < $0 } ?? true }

    /// Whether the message says the hazard is over rather than announcing one: CAP `responseType` `AllClear`,
    /// or `urgency` `Past`. Such a message is never shown, but what it replaces is replaced.
    package var isAllClear: Bool {
        urgency.trimmingWhitespace.lowercased() == "past"
            || responseTypes.contains { $0.trimmingWhitespace.lowercased() == "allclear" }
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(id), "source": .string(source.rawValue), "sender": .string(sender),
            "event": .string(event), "severity": .string(severity.cap), "certainty": .string(certainty),
            "urgency": .string(urgency), "sent": .string(sent.description), "language": .string(language),
            "replaces": .array(replaces.map(JSONValue.string)), "areaNames": .array(areaNames.map(JSONValue.string)),
            "areaIds": .array(areaIds.map(JSONValue.string)), "messageType": .string(messageType.rawValue),
        ]
        if let expires { object["expires"] = .string(expires.description) }
        if let effective { object["effective"] = .string(effective.description) }
        if let onset { object["onset"] = .string(onset.description) }
        if let ends { object["ends"] = .string(ends.description) }
        if let headline { object["headline"] = .string(headline) }
        if let description { object["description"] = .string(description) }
        if let instruction { object["instruction"] = .string(instruction) }
        if let web { object["web"] = .string(web) }
        if !responseTypes.isEmpty { object["responseTypes"] = .array(responseTypes.map(JSONValue.string)) }
        shapes.write(into: &object)
        return .object(object)
    }

    /// The canonical form kept in the state's snapshots: `json` with the severity named as weatherd names it
    /// inside (`severe`), as snapshots always have; events and answers spell it as CAP does.
    package var stateJSON: JSONValue {
        guard case .object(var object) = json else { return json }
        object["severity"] = .string(severity.rawValue)
        return .object(object)
    }

    /// Reads a warning as `json` (or `stateJSON`) writes it; `severity` in any case of CAP's five (`warnings.fetched` v1 wrote
    /// them in lower case).
    package init(json: JSONValue, path: String) throws(FieldError) {
        let r = try FieldReader(json, path: path)
        guard let source = try r.choice("source", as: Source.self) else {
            throw FieldError(path: "\(path).source", problem: "is required")
        }
        guard let severity = WarningSeverity(recorded: try r.string("severity")) else {
            throw FieldError(path: "\(path).severity", problem: "must be Extreme, Severe, Moderate, Minor or Unknown")
        }
        guard let messageType = try r.choice("messageType", as: MessageType.self) else {
            throw FieldError(path: "\(path).messageType", problem: "is required")
        }
        self.init(
            id: try r.string("id"), source: source, sender: try r.string("sender"), event: try r.string("event"),
            severity: severity, certainty: try r.string("certainty"), urgency: try r.string("urgency"),
            sent: try r.timestamp("sent"), effective: try r.optionalTimestamp("effective"),
            onset: try r.optionalTimestamp("onset"), expires: try r.optionalTimestamp("expires"),
            ends: try r.optionalTimestamp("ends"), headline: try r.optionalString("headline"),
            description: try r.optionalString("description"), instruction: try r.optionalString("instruction"),
            web: try r.optionalString("web"), language: try r.string("language"),
            replaces: try r.optionalStrings("replaces") ?? [], areaNames: try r.optionalStrings("areaNames") ?? [],
            areaIds: try r.optionalStrings("areaIds") ?? [], messageType: messageType,
            responseTypes: try r.optionalStrings("responseTypes") ?? [], shapes: try WarningShapes(r))
    }
}
