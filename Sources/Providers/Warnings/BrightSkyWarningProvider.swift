import WeatherDomain

/// The Deutscher Wetterdienst's warnings for Germany by municipality, through Bright Sky (api.brightsky.dev),
/// which needs no key.
///
/// DWD divides Germany into about 11,000 municipal warn cells; Bright Sky answers `GET /alerts?lat=&lon=` with
/// the warnings in force in the cell holding the point and the cell itself (`location`), each warning's texts
/// in English and German. A point in no cell (outside Germany) gets a 404 whose body is a JSON object
/// (`{"detail": …}`): Bright Sky's way of saying the place is not its own, which hands it to the next source.
/// No I/O here: the caller fetches.
///
/// **Mapping.** Bright Sky writes `severity`, `urgency`, `certainty` and `response_type` in lower case (`minor`,
/// `immediate`, `likely`, `allclear`): weatherd spells them as CAP does and DWD issued them (`Minor`,
/// `Immediate`, `Likely`, `AllClear`), so they read the same as every other source's. Each alert gives two
/// warnings with the same id, `en` and `de`, of which `WarningRules` keeps the reader's language. Bright Sky
/// gives the current state of each warning (no updates or cancels to follow): replaced and cancelled warnings are
/// simply gone from its answer.
package struct BrightSkyWarningProvider: Sendable {
    /// The API's base URL, without trailing slashes.
    package let baseURL: String

    /// Creates a provider; the base URL may carry a path prefix (a proxy) and a trailing slash.
    package init(baseURL: String = "https://api.brightsky.dev") {
        self.baseURL = RequestURL.base(baseURL)
    }

    /// `brightsky`, as recorded in events.
    package var name: String { OfficialWarning.Source.brightsky.rawValue }

    /// The credit shown with its warnings.
    package static let attribution = "Deutscher Wetterdienst (DWD), via Bright Sky"

    /// Who issues the warnings Bright Sky serves.
    static let sender = "Deutscher Wetterdienst"

    /// `GET /alerts?lat=&lon=`, coordinates with at most 4 decimals; a 404 is an answer (`decodeAlerts`).
    package func alertsRequest(lat: Double, lon: Double) -> ProviderRequest {
        let url = RequestURL.make(
            baseURL, "/alerts", [("lat", RequestURL.coordinate(lat)), ("lon", RequestURL.coordinate(lon))])
        return ProviderRequest(url: url, auditURL: url, notFoundIsAnswer: true)
    }

    /// Reads an `/alerts` answer: whether the point lies in a DWD warn cell, and its warnings (two languages
    /// each, `test` alerts left out).
    ///
    /// A 2xx must be `{alerts: [...], location}`; a `location` that is null says the point is in no cell. A 404
    /// must be a JSON object (Bright Sky's `{"detail": …}`): not covered. A 404 that is not JSON (a proxy's page,
    /// a wrong base URL) says nothing about the point and is an error.
    ///
    /// - Throws: `ProviderError` `bad_upstream_response` naming the member that is wrong.
    package func decodeAlerts(status: Int, body: [UInt8]) throws(ProviderError) -> (
        covered: Bool, warnings: [OfficialWarning]
    ) {
        guard status != 404 else {
            guard case .object = try ResponseBody.parse(body, provider: name) else {
                throw ProviderError.badBody(name, "a 404 from /alerts must be a JSON object")
            }
            return (false, [])
        }
        return try ResponseBody.decode(body, provider: name) { (root) throws(FieldError) in
            let top = try FieldReader(root, path: "$")
            var cell: String?
            if let location = top.members["location"], !location.isNull {
                let reader = try FieldReader(location, path: "$.location")
                if let number = try reader.optionalInt("warn_cell_id") { cell = String(number) }
            }
            var warnings: [OfficialWarning] = []
            for (index, item) in try ResponseBody.array(top, "alerts").enumerated() {
                warnings += try Self.warnings(FieldReader(item, path: "$.alerts[\(index)]"), cell: cell)
            }
            return (top.members["location"].map { !$0.isNull } ?? true, warnings)
        }
    }

    /// The English and German versions of one alert; none for a `test` alert.
    private static func warnings(_ alert: FieldReader, cell: String?) throws(FieldError) -> [OfficialWarning] {
        guard CAPFields.isActual(try alert.optionalString("status")) else { return [] }
        let id = try alert.string("alert_id")
        let effective = try CAPFields.optionalTime(alert, "effective")
        var versions: [OfficialWarning] = []
        for language in ["en", "de"] {
            guard let event = try alert.optionalString("event_\(language)"),
                let headline = try alert.optionalString("headline_\(language)")
            else { continue }
            versions.append(
                OfficialWarning(
                    id: id, source: .brightsky, sender: sender, event: event,
                    severity: WarningSeverity(cap: try alert.optionalString("severity") ?? "Unknown"),
                    certainty: capSpelling(try alert.optionalString("certainty")),
                    urgency: capSpelling(try alert.optionalString("urgency")), sent: effective ?? unsent,
                    effective: effective, onset: try CAPFields.optionalTime(alert, "onset"),
                    expires: try CAPFields.optionalTime(alert, "expires"), headline: headline,
                    description: try alert.optionalString("description_\(language)"),
                    instruction: try alert.optionalString("instruction_\(language)"), language: language,
                    areaIds: cell.map { [$0] } ?? [],
                    responseTypes: try alert.optionalString("response_type").map { [capSpelling($0)] } ?? []))
        }
        guard !versions.isEmpty else {
            throw FieldError(path: "\(alert.path).headline_en", problem: "is required (or headline_de with event_de)")
        }
        return versions
    }

    /// Bright Sky gives no `sent`; its `effective` is DWD's time of issue. Without one, the epoch: an alert with
    /// no time of issue orders before any that has one.
    private static let unsent = Timestamp(milliseconds: 0)

    /// CAP's spelling of a value Bright Sky writes in lower case (`immediate` → `Immediate`, `allclear` →
    /// `AllClear`); `Unknown` when it writes none; a value CAP does not list is kept as written.
    package static func capSpelling(_ value: String?) -> String {
        guard let value = value?.trimmingWhitespace, !value.isEmpty else { return "Unknown" }
        return capValues[value.lowercased()] ?? value
    }

    /// CAP 1.2's values of `urgency`, `certainty` and `responseType`, by their lower-case spelling.
    private static let capValues: [String: String] = Dictionary(
        uniqueKeysWithValues: [
            "Immediate", "Expected", "Future", "Past", "Unknown", "Observed", "Likely", "Possible", "Unlikely",
            "Shelter", "Evacuate", "Prepare", "Execute", "Avoid", "Monitor", "Assess", "AllClear", "None",
        ].map { ($0.lowercased(), $0) })
}
