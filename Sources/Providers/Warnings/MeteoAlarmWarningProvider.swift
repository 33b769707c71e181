import WeatherDomain

/// MeteoAlarm's per-country warning feeds (feeds.meteoalarm.org), which need no key.
///
/// A feed holds every current CAP message of a country's services, one `info` per language,
/// expired and replaced ones included: `WarningRules.active` decides what is shown, and
/// `MeteoAlarmAreas` which warnings concern a place. MeteoAlarm asks that its data be credited
/// (`attribution`). No I/O here: the caller fetches.
package struct MeteoAlarmWarningProvider: Sendable {
    /// The feeds' base URL, without trailing slashes.
    package let baseURL: String

    /// Creates a provider; the base URL may carry a path prefix (a proxy) and a trailing slash.
    package init(baseURL: String = "https://feeds.meteoalarm.org") {
        self.baseURL = RequestURL.base(baseURL)
    }

    /// `meteoalarm`, as recorded in events.
    package var name: String { OfficialWarning.Source.meteoalarm.rawValue }

    /// The credit MeteoAlarm asks to be shown with its warnings.
    package static let attribution = "EUMETNET – MeteoAlarm"

    /// `GET /api/v1/warnings/feeds-<country>` for a country code; nil for a country MeteoAlarm does not serve.
    package func feedRequest(country: String) -> ProviderRequest? {
        guard let feed = MeteoAlarmFeeds.feed(country: country) else { return nil }
        let url = baseURL + "/api/v1/warnings/feeds-" + feed
        return ProviderRequest(url: url, auditURL: url)
    }

    /// Reads a 2xx feed: one warning per `info` (language) of each message, in the feed's order.
    ///
    /// Messages whose `status` is not `Actual` and `Ack`/`Error` messages are left out.
    /// `references` (`sender,identifier,sent` triples) give `replaces`; an area's `EMMA_ID`
    /// geocodes give `areaIds`; an `info` without `language` is `en-US`, as CAP defines.
    package func decodeFeed(_ body: [UInt8]) throws(ProviderError) -> [OfficialWarning] {
        try ResponseBody.decode(body, provider: name) { (root) throws(FieldError) in try Self.warnings(root) }
    }

    static func warnings(_ root: JSONValue) throws(FieldError) -> [OfficialWarning] {
        let top = try FieldReader(root, path: "$")
        var warnings: [OfficialWarning] = []
        for (index, item) in try ResponseBody.array(top, "warnings").enumerated() {
            let entry = try FieldReader(item, path: "$.warnings[\(index)]")
            let alert = try FieldReader(entry.members["alert"], path: "\(entry.path).alert")
            guard CAPFields.isActual(try alert.optionalString("status")),
                let messageType = try CAPFields.messageType(alert, "msgType")
            else { continue }
            let message = Message(
                id: try alert.string("identifier"), sender: try alert.optionalString("sender"),
                sent: try CAPFields.time(alert, "sent"),
                replaces: try CAPFields.referencedIDs(
                    try alert.optionalString("references"), path: "\(alert.path).references"),
                messageType: messageType)
            for (infoIndex, info) in try ResponseBody.array(alert, "info").enumerated() {
                warnings.append(try warning(FieldReader(info, path: "\(alert.path).info[\(infoIndex)]"), of: message))
            }
        }
        return warnings
    }

    /// What the `alert` says for all its languages.
    private struct Message {
        var id: String
        var sender: String?
        var sent: Timestamp
        var replaces: [String]
        var messageType: OfficialWarning.MessageType
    }

    private static func warning(_ info: FieldReader, of message: Message) throws(FieldError) -> OfficialWarning {
        var areaNames: [String] = []
        var areaIds: [String] = []
        for (index, item) in (try ResponseBody.optionalArray(info, "area") ?? []).enumerated() {
            let area = try FieldReader(item, path: "\(info.path).area[\(index)]")
            areaNames.append(try area.string("areaDesc"))
            for (codeIndex, code) in (try ResponseBody.optionalArray(area, "geocode") ?? []).enumerated() {
                let geocode = try FieldReader(code, path: "\(area.path).geocode[\(codeIndex)]")
                if try geocode.optionalString("valueName") == "EMMA_ID" { areaIds.append(try geocode.string("value")) }
            }
        }
        guard let sender = try info.optionalString("senderName") ?? message.sender else {
            throw FieldError(path: "\(info.path).senderName", problem: "is required when the alert has no sender")
        }
        return OfficialWarning(
            id: message.id, source: .meteoalarm, sender: sender, event: try info.string("event"),
            severity: WarningSeverity(cap: try info.string("severity")), certainty: try info.string("certainty"),
            urgency: try info.string("urgency"), sent: message.sent,
            effective: try CAPFields.optionalTime(info, "effective"),
            onset: try CAPFields.optionalTime(info, "onset"), expires: try CAPFields.time(info, "expires"),
            headline: try info.optionalString("headline"), description: try info.optionalString("description"),
            instruction: try info.optionalString("instruction"), web: try info.optionalString("web"),
            language: try info.optionalString("language") ?? "en-US", replaces: message.replaces, areaNames: areaNames,
            areaIds: areaIds, messageType: message.messageType,
            responseTypes: try info.optionalStrings("responseType") ?? [])
    }
}
