import WeatherDomain

/// The US National Weather Service's active alerts for a point (api.weather.gov), which need no key.
///
/// NWS refuses requests without a `User-Agent` and asks that it name the application and a
/// contact, so the request carries one (`userAgent(contact:)`). No I/O here: the caller fetches.
package struct NWSWarningProvider: Sendable {
    /// The API's base URL, without trailing slashes.
    package let baseURL: String
    /// The `User-Agent` header sent with every request.
    package let userAgent: String

    /// Creates a provider; the base URL may carry a path prefix (a proxy) and a trailing slash.
    package init(userAgent: String, baseURL: String = "https://api.weather.gov") {
        self.userAgent = userAgent
        self.baseURL = RequestURL.base(baseURL)
    }

    /// `nws`, as recorded in events.
    package var name: String { OfficialWarning.Source.nws.rawValue }

    /// A `User-Agent` as NWS asks for it: `weatherd/1.0 (contact)`, e.g. an e-mail address or a URL.
    ///
    /// Control characters in `contact` become spaces so it can never end the header line; an empty
    /// contact gives `weatherd/1.0` alone.
    package static func userAgent(contact: String, version: String = "1.0") -> String {
        UserAgent.weatherd(contact: contact, version: version)
    }

    /// `GET /alerts/active?point=LAT,LON`, coordinates with at most 4 decimals as NWS requires.
    package func alertsRequest(lat: Double, lon: Double) -> ProviderRequest {
        let url = RequestURL.make(
            baseURL, "/alerts/active", [("point", "\(RequestURL.coordinate(lat)),\(RequestURL.coordinate(lon))")])
        return ProviderRequest(
            url: url, auditURL: url, headers: ["User-Agent": userAgent, "Accept": "application/geo+json"])
    }

    /// Reads a 2xx GeoJSON FeatureCollection: one warning per feature, in the feed's order.
    ///
    /// `@context` (an object in some answers, an array in others) is not read. Messages whose
    /// `status` is not `Actual` (tests, exercises) and `Ack`/`Error` messages are left out. NWS
    /// sends no `language` in GeoJSON; its texts are `en-US`. `areaDesc` is split at `;` into names; `response`
    /// (CAP's `responseType`, such as `AllClear`) is kept as the one response type.
    package func decodeAlerts(_ body: [UInt8]) throws(ProviderError) -> [OfficialWarning] {
        try ResponseBody.decode(body, provider: name) { (root) throws(FieldError) in try Self.warnings(root) }
    }

    static func warnings(_ root: JSONValue) throws(FieldError) -> [OfficialWarning] {
        let top = try FieldReader(root, path: "$")
        var warnings: [OfficialWarning] = []
        for (index, item) in try ResponseBody.array(top, "features").enumerated() {
            let feature = try FieldReader(item, path: "$.features[\(index)]")
            let properties = try FieldReader(feature.members["properties"], path: "\(feature.path).properties")
            if let warning = try warning(properties) { warnings.append(warning) }
        }
        return warnings
    }

    private static func warning(_ p: FieldReader) throws(FieldError) -> OfficialWarning? {
        guard CAPFields.isActual(try p.optionalString("status")),
            let messageType = try CAPFields.messageType(p, "messageType")
        else { return nil }
        var replaces: [String] = []
        for (index, item) in (try ResponseBody.optionalArray(p, "references") ?? []).enumerated() {
            replaces.append(try FieldReader(item, path: "\(p.path).references[\(index)]").string("identifier"))
        }
        let geocode = try FieldReader(p.members["geocode"], path: "\(p.path).geocode", allowAbsent: true)
        // The service's name when NWS gives one (`NWS Phoenix AZ`), else its address.
        let sender: String
        if let name = try p.optionalString("senderName") { sender = name } else { sender = try p.string("sender") }
        let areaNames = (try p.optionalString("areaDesc") ?? "").split(separator: ";")
            .map { String($0).trimmingWhitespace }.filter { !$0.isEmpty }
        return OfficialWarning(
            id: try p.string("id"), source: .nws, sender: sender,
            event: try p.string("event"), severity: WarningSeverity(cap: try p.string("severity")),
            certainty: try p.string("certainty"), urgency: try p.string("urgency"), sent: try CAPFields.time(p, "sent"),
            effective: try CAPFields.optionalTime(p, "effective"), onset: try CAPFields.optionalTime(p, "onset"),
            expires: try CAPFields.time(p, "expires"), ends: try CAPFields.optionalTime(p, "ends"),
            headline: try p.optionalString("headline"), description: try p.optionalString("description"),
            instruction: try p.optionalString("instruction"), language: try p.optionalString("language") ?? "en-US",
            replaces: replaces, areaNames: areaNames, areaIds: try geocode.optionalStrings("UGC") ?? [],
            messageType: messageType, responseTypes: try p.optionalString("response").map { [$0] } ?? [])
    }
}
