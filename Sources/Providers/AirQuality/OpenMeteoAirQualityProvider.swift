import WeatherDomain

/// Open-Meteo's air-quality API (CAMS models), which needs no API key.
///
/// Gases and particles come in μg/m³, weatherd's canonical unit, and the unit labels are checked
/// rather than trusted; pollen comes in grains/m³ and is `null` outside Europe, which is read as
/// absent. Local ISO times (the default) and unix times are both read.
package struct OpenMeteoAirQualityProvider: AirQualityProvider {
    /// The API's base URL, without trailing slashes.
    package let baseURL: String

    /// Creates a provider; the base URL may carry a path prefix (a proxy) and a trailing slash.
    package init(baseURL: String = "https://air-quality-api.open-meteo.com") {
        self.baseURL = RequestURL.base(baseURL)
    }

    /// `open-meteo`, as recorded in events.
    package var name: String { "open-meteo" }

    /// What one Open-Meteo variable measures, which decides the unit labels it may carry.
    enum Kind {
        case index, concentration, pollen
    }

    /// The variables asked for, with the entry member each fills.
    static let variables: [(name: String, kind: Kind, member: AirQualityEntry.Member)] = [
        ("european_aqi", .index, \.europeanAqi), ("us_aqi", .index, \.usAqi), ("pm2_5", .concentration, \.pm25),
        ("pm10", .concentration, \.pm10), ("ozone", .concentration, \.ozone),
        ("nitrogen_dioxide", .concentration, \.nitrogenDioxide),
        ("sulphur_dioxide", .concentration, \.sulphurDioxide), ("carbon_monoxide", .concentration, \.carbonMonoxide),
        ("uv_index", .index, \.uvIndex), ("alder_pollen", .pollen, \.alderPollen),
        ("birch_pollen", .pollen, \.birchPollen), ("grass_pollen", .pollen, \.grassPollen),
        ("mugwort_pollen", .pollen, \.mugwortPollen), ("olive_pollen", .pollen, \.olivePollen),
        ("ragweed_pollen", .pollen, \.ragweedPollen),
    ]

    /// `/v1/air-quality` with the values now and two days of hours, so 24 from any hour of today fit.
    package func airQualityRequest(lat: Double, lon: Double) -> ProviderRequest {
        let names = Self.variables.map(\.name).joined(separator: ",")
        let url = RequestURL.make(
            baseURL, "/v1/air-quality",
            [
                ("latitude", RequestURL.coordinate(lat)), ("longitude", RequestURL.coordinate(lon)), ("current", names),
                ("hourly", names), ("timezone", "auto"), ("forecast_days", "2"),
            ])
        return ProviderRequest(url: url, auditURL: url)
    }

    /// Nil: the one request gives the hours too.
    package func airQualityForecastRequest(lat: Double, lon: Double) -> ProviderRequest? { nil }

    /// Reads `current` and the next 24 values of `hourly`; `forecast` is not used.
    package func decodeAirQuality(_ body: [UInt8], forecast: [UInt8]?, place: Place, now: Timestamp)
        throws(ProviderError) -> AirQualityReport
    {
        try ResponseBody.decodeOpenMeteo(body, provider: name) { root throws(FieldError) in
            try Self.report(root, place: place, now: now)
        }
    }

    static func report(_ root: JSONValue, place: Place, now: Timestamp) throws(FieldError) -> AirQualityReport {
        let top = try FieldReader(root, path: "$")
        guard top.has("current") || top.has("hourly") else {
            throw FieldError(path: "$.current", problem: "is required when there is no $.hourly")
        }
        let offset = try top.optionalInt("utc_offset_seconds") ?? 0
        var warnings: [String] = []
        var current: AirQualityEntry?
        if top.has("current") {
            current = try currentEntry(top, utcOffsetSeconds: offset, warnings: &warnings)
        }
        let hourly = top.has("hourly") ? try hourlyEntries(top, utcOffsetSeconds: offset, warnings: &warnings) : []
        var report = AirQualityReport(
            place: place, current: current, hourly: AirQualityReport.nextHours(hourly, now: now))
        report.warnings = warnings
        return report
    }

    private static func currentEntry(_ top: FieldReader, utcOffsetSeconds: Int64, warnings: inout [String])
        throws(FieldError) -> AirQualityEntry
    {
        let current = try FieldReader(top.members["current"], path: "$.current")
        let units = try FieldReader(top.members["current_units"], path: "$.current_units", allowAbsent: true)
        var entry = AirQualityEntry(
            time: try ResponseBody.time(
                current.members["time"], path: "$.current.time", utcOffsetSeconds: utcOffsetSeconds))
        for variable in variables where try knownUnit(units, variable.name, kind: variable.kind, &warnings) {
            entry[keyPath: variable.member] = try current.optionalDouble(variable.name)
        }
        return entry
    }

    private static func hourlyEntries(_ top: FieldReader, utcOffsetSeconds: Int64, warnings: inout [String])
        throws(FieldError) -> [AirQualityEntry]
    {
        let hourly = try FieldReader(top.members["hourly"], path: "$.hourly")
        let units = try FieldReader(top.members["hourly_units"], path: "$.hourly_units", allowAbsent: true)
        var entries: [AirQualityEntry] = []
        for (index, value) in try ResponseBody.array(hourly, "time").enumerated() {
            entries.append(
                AirQualityEntry(
                    time: try ResponseBody.time(
                        value, path: "$.hourly.time[\(index)]", utcOffsetSeconds: utcOffsetSeconds)))
        }
        for variable in variables where try knownUnit(units, variable.name, kind: variable.kind, &warnings) {
            guard let column = try ResponseBody.numbers(hourly, variable.name, count: entries.count) else { continue }
            for index in entries.indices { entries[index][keyPath: variable.member] = column[index] }
        }
        return entries
    }

    /// Whether a variable's unit label is the one weatherd reads it in; when not, the variable is left out of the
    /// answer (one odd label does not sink the rest) and `warnings` says so.
    ///
    /// A missing label means what weatherd asked for. μg/m³ is accepted with either micro sign
    /// (Open-Meteo sends U+03BC GREEK SMALL LETTER MU; U+00B5 MICRO SIGN is the same unit).
    /// The indices' labels (`EAQI`, `USAQI`, `""`) are not units and are not checked.
    private static func knownUnit(_ units: FieldReader, _ key: String, kind: Kind, _ warnings: inout [String])
        throws(FieldError) -> Bool
    {
        guard let label = try units.optionalString(key), kind != .index else { return true }
        let (known, what) =
            kind == .pollen
            ? (["grains/m\u{B3}", "grains/m3"], "pollen")
            : (["\u{3BC}g/m\u{B3}", "\u{B5}g/m\u{B3}", "ug/m3"], "concentration")
        guard known.contains(label) else {
            warnings.append("\(units.path).\(key) is an unknown \(what) unit \"\(label)\": \(key) left out")
            return false
        }
        return true
    }
}
