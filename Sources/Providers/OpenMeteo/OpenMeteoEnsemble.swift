import WeatherDomain

/// Open-Meteo's Ensemble API (`/v1/ensemble`), which needs no key: every member of one ensemble model's run, hour
/// by hour, read into the spread of a place's days and next hours (`EnsembleSummary`). No I/O here: the caller
/// fetches.
///
/// One model is asked for at a time (`models=<model>`), so the answer's variables carry no model suffix: the
/// control run is `temperature_2m` itself and each perturbed member `temperature_2m_member01`, `…_member02`, …
/// (two digits). Models reach different horizons (ECMWF IFS 0.25°, 51 members: 15 days; GEFS 0.25°: 10; ICON
/// EPS: 7.5; GEM: 16), and past its horizon a model's values are null: those days are left out, not read as zero.
package struct OpenMeteoEnsemble: Sendable {
    /// The API's base URL, without trailing slashes.
    package let baseURL: String

    /// Creates a client; the base URL may carry a path prefix (a proxy) and a trailing slash.
    package init(baseURL: String = "https://ensemble-api.open-meteo.com") {
        self.baseURL = RequestURL.base(baseURL)
    }

    /// `open-meteo`, as recorded in events.
    package var name: String { "open-meteo" }

    /// The model asked for unless `--ensemble-model` says otherwise: ECMWF's IFS ensemble at 0.25°, 51 members.
    package static let defaultModel = "ecmwf_ifs025"
    /// The days asked for: as many as `weather/confidence` answers; a model that reaches fewer has nulls after.
    package static let forecastDays = 16
    /// How often the models' runs come, in hours: the cache keeps one answer per place and model for the run it
    /// belongs to (the 6-hour window of the day it was fetched in).
    package static let runHours: Int64 = 6

    /// The hourly temperature and precipitation of every member of `model`, from local midnight today for
    /// `forecastDays` days, times in unix seconds.
    package func request(lat: Double, lon: Double, model: String) -> ProviderRequest {
        let url = RequestURL.make(
            baseURL, "/v1/ensemble",
            [
                ("latitude", RequestURL.coordinate(lat)), ("longitude", RequestURL.coordinate(lon)),
                ("models", model), ("hourly", "temperature_2m,precipitation"),
                ("forecast_days", String(Self.forecastDays)), ("timezone", "auto"), ("timeformat", "unixtime"),
            ])
        return ProviderRequest(url: url, auditURL: url)
    }

    /// Reads every member's hours into the spread of the days they cover and of the hours from the one running at
    /// `now`, on the place's clocks (`timezone` and `utc_offset_seconds`, as asked with `timezone=auto`).
    ///
    /// - Throws: `ProviderError` for a body that is not JSON, Open-Meteo's `{"error":true}`, a unit other than
    ///   °C and mm, a column of another length than `time`, or no temperature of any member.
    package func decode(_ body: [UInt8], model: String, now: Timestamp) throws(ProviderError) -> EnsembleSummary {
        try ResponseBody.decodeOpenMeteo(body, provider: name) { root throws(FieldError) in
            try Self.summary(root, model: model, now: now)
        }
    }

    static func summary(_ root: JSONValue, model: String, now: Timestamp) throws(FieldError) -> EnsembleSummary {
        let top = try FieldReader(root, path: "$")
        let offset = try top.optionalInt("utc_offset_seconds") ?? 0
        let timezone = try top.optionalString("timezone")
        let hourly = try FieldReader(top.members["hourly"], path: "$.hourly")
        let units = try FieldReader(top.members["hourly_units"], path: "$.hourly_units", allowAbsent: true)
        for (key, unit) in [("temperature_2m", "°C"), ("precipitation", "mm")] {
            if let label = try units.optionalString(key), label != unit {
                throw FieldError(path: "$.hourly_units.\(key)", problem: "is \(label), not \(unit)")
            }
        }
        let times = try ResponseBody.array(hourly, "time").enumerated().map { index, value throws(FieldError) in
            try ResponseBody.time(value, path: "$.hourly.time[\(index)]", utcOffsetSeconds: offset)
        }
        let temperatures = try columns(hourly, "temperature_2m", count: times.count)
        let amounts = try columns(hourly, "precipitation", count: times.count)
        guard temperatures.values.contains(where: { $0.contains { $0 != nil } }) else {
            throw FieldError(path: "$.hourly", problem: "has no member with a temperature_2m")
        }
        let members = temperatures.keys.sorted().map { name in
            MemberSeries(
                name: name, temperature: temperatures[name] ?? [],
                precipitation: amounts[name] ?? Array(repeating: nil, count: times.count))
        }
        let zone = ZoneOffsets.place(timezone: timezone, utcOffsetSeconds: offset, around: times.first ?? now)
        return EnsembleSummary.ofMembers(
            model: model, times: times, members: members, zone: zone, timezone: timezone, utcOffsetSeconds: offset,
            now: now)
    }

    /// The columns of `variable` by member: `control` for the un-suffixed one, `memberNN` for `<variable>_memberNN`.
    static func columns(_ hourly: FieldReader, _ variable: String, count: Int) throws(FieldError) -> [String: [Double?]]
    {
        var columns: [String: [Double?]] = [:]
        for key in hourly.members.keys {
            let name: String
            if key == variable {
                name = "control"
            } else if key.hasPrefix(variable + "_member"),
                case let number = key.dropFirst(variable.count + "_member".count),
                !number.isEmpty, number.allSatisfy(\.isASCIIDigit)
            {
                name = "member" + number
            } else {
                continue
            }
            columns[name] = try ResponseBody.numbers(hourly, key, count: count)
        }
        return columns
    }
}

extension Character {
    /// Whether the character is one of the ASCII digits 0–9.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
