/// One local day of an ensemble forecast: how its members spread for the day's high, low and precipitation, and
/// how many of them have precipitation; canonical units (°C, mm).
package struct ConfidenceDay: Sendable, Equatable {
    /// `YYYY-MM-DD` in the place's time zone.
    package var date: String
    /// The members whose temperatures cover the day (a value in each of its four quarters); nil from a source of
    /// published percentiles.
    package var members: Int?
    package var high: Spread
    package var low: Spread
    /// The spread of the day's precipitation (a source of published percentiles: its minimum and maximum in the
    /// 10th and 90th); nil when no member has a precipitation that covers the day.
    package var precipitation: Spread?
    /// The members whose precipitation covers the day; nil from a source of published percentiles.
    package var precipitationMembers: Int?
    /// The share of those members (0…1) with at least `EnsembleSummary.wetMillimetres` in the day; from a source of
    /// published percentiles, its highest probability of precipitation in the day.
    package var wet: Double?

    package init(
        date: String, members: Int?, high: Spread, low: Spread, precipitation: Spread? = nil,
        precipitationMembers: Int? = nil, wet: Double? = nil
    ) {
        self.date = date
        self.members = members
        self.high = high
        self.low = low
        self.precipitation = precipitation
        self.precipitationMembers = precipitationMembers
        self.wet = wet
    }

    /// The day's label (`ConfidenceLabel.of`).
    package var label: ConfidenceLabel? { ConfidenceLabel.of(high: high, low: low, wet: wet, members: members) }
}

/// One hour of an ensemble forecast: how its members spread for the temperature, and how many have
/// precipitation in the hour.
package struct ConfidenceHour: Sendable, Equatable {
    /// The hour's start.
    package var time: Timestamp
    /// The members with a temperature at this hour (a member null here is left out); nil from a source of
    /// published percentiles.
    package var members: Int?
    package var temperature: Spread
    /// The share of the members with a precipitation at this hour (0…1) that have at least
    /// `EnsembleSummary.wetMillimetres` in it; from a source of published percentiles, its probability of
    /// precipitation in the hour.
    package var wet: Double?

    package init(time: Timestamp, members: Int?, temperature: Spread, wet: Double? = nil) {
        self.time = time
        self.members = members
        self.temperature = temperature
        self.wet = wet
    }
}

/// How sure a place's forecast is: the spread of an ensemble's members per local day and per hour of the next 48,
/// as one fetch of Open-Meteo's Ensemble API (members) or of MET Norway's forecast (its own percentiles) gave it.
package struct EnsembleSummary: Sendable, Equatable {
    /// Where the spread comes from.
    package enum Method: String, Sendable, CaseIterable {
        /// Percentiles computed here over the members of an ensemble (Open-Meteo's Ensemble API).
        case members
        /// Percentiles the source published (MET Norway's 10th and 90th).
        case percentiles
    }

    /// The model asked for (`ecmwf_ifs025`), or the source (`met-norway`).
    package var model: String
    package var method: Method
    /// The most members any step had: the ensemble's size as it answered (the control run counts).
    package var members: Int?
    /// The IANA zone name when the source gives one.
    package var timezone: String?
    /// The place's offset from UTC when fetched, in seconds east.
    package var utcOffsetSeconds: Int64
    /// The local days the members reach, in order: a day the model does not reach is absent.
    package var days: [ConfidenceDay]
    /// The hours from the hour of the fetch, at most `keptHours`.
    package var hours: [ConfidenceHour]

    /// The hours `weather/confidence` answers: the next 48.
    package static let maxHours = 48
    /// The hours a fetch keeps from the one running when it came: the next 48 and the 6 of a model run's window
    /// (`OpenMeteoEnsemble.runHours`), so the next 48 are in it for as long as it is served from the cache.
    package static let keptHours = 54
    /// The least precipitation that makes a member's day or hour wet, mm.
    package static let wetMillimetres = 0.1

    package init(
        model: String, method: Method, members: Int?, timezone: String?, utcOffsetSeconds: Int64,
        days: [ConfidenceDay], hours: [ConfidenceHour]
    ) {
        self.model = model
        self.method = method
        self.members = members
        self.timezone = timezone
        self.utcOffsetSeconds = utcOffsetSeconds
        self.days = days
        self.hours = hours
    }
}

extension EnsembleSummary {
    /// `{model, method, members?, timezone?, utcOffsetSeconds, days, hours}`: each day `{date, members?, high,
    /// low, precipitation?, precipitationMembers?, wet?}` and each hour `{time, members?, temperature, wet?}`,
    /// spreads as five numbers or nulls. The form of `ensemble.fetched` and of snapshots.
    package func write(into object: inout [String: JSONValue]) {
        object["model"] = .string(model)
        object["method"] = .string(method.rawValue)
        if let members { object["members"] = .int(Int64(members)) }
        if let timezone { object["timezone"] = .string(timezone) }
        object["utcOffsetSeconds"] = .int(utcOffsetSeconds)
        object["days"] = .array(
            days.map { day in
                var item: [String: JSONValue] = [
                    "date": .string(day.date), "high": day.high.json, "low": day.low.json,
                ]
                if let members = day.members { item["members"] = .int(Int64(members)) }
                if let precipitation = day.precipitation { item["precipitation"] = precipitation.json }
                if let count = day.precipitationMembers { item["precipitationMembers"] = .int(Int64(count)) }
                if let wet = day.wet { item["wet"] = .double(wet) }
                return .object(item)
            })
        object["hours"] = .array(
            hours.map { hour in
                var item: [String: JSONValue] = [
                    "time": .string(hour.time.description), "temperature": hour.temperature.json,
                ]
                if let members = hour.members { item["members"] = .int(Int64(members)) }
                if let wet = hour.wet { item["wet"] = .double(wet) }
                return .object(item)
            })
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = [:]
        write(into: &object)
        return .object(object)
    }

    /// Reads the form `write(into:)` writes; `days` and `hours` may be absent (a payload compaction stripped).
    package init(_ r: FieldReader) throws(FieldError) {
        guard let method = try r.choice("method", as: Method.self) else {
            throw FieldError(path: "\(r.path).method", problem: "is required")
        }
        let days: [ConfidenceDay] =
            r.has("days")
            ? try r.elements("days") { item, path throws(FieldError) in
                let day = try FieldReader(item, path: path)
                return ConfidenceDay(
                    date: try day.string("date"), members: try day.optionalInt("members").map { Int($0) },
                    high: try Spread(json: day.members["high"], path: "\(path).high"),
                    low: try Spread(json: day.members["low"], path: "\(path).low"),
                    precipitation: try day.members["precipitation"].map { value throws(FieldError) in
                        try Spread(json: value, path: "\(path).precipitation")
                    }, precipitationMembers: try day.optionalInt("precipitationMembers").map { Int($0) },
                    wet: try day.optionalDouble("wet"))
            } : []
        let hours: [ConfidenceHour] =
            r.has("hours")
            ? try r.elements("hours") { item, path throws(FieldError) in
                let hour = try FieldReader(item, path: path)
                return ConfidenceHour(
                    time: try hour.timestamp("time"), members: try hour.optionalInt("members").map { Int($0) },
                    temperature: try Spread(json: hour.members["temperature"], path: "\(path).temperature"),
                    wet: try hour.optionalDouble("wet"))
            } : []
        self.init(
            model: try r.string("model"), method: method, members: try r.optionalInt("members").map { Int($0) },
            timezone: try r.optionalString("timezone"), utcOffsetSeconds: try r.int("utcOffsetSeconds"), days: days,
            hours: hours)
    }
}
