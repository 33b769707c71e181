/// Where a weather answer is for: coordinates, and a name when one is known.
public struct Place: Sendable, Equatable {
    public var name: String?
    /// ISO 3166 country code.
    public var country: String?
    /// State or region.
    public var state: String?
    public var lat: Double
    public var lon: Double

    public init(name: String?, country: String?, state: String?, lat: Double, lon: Double) {
        self.name = name
        self.country = country
        self.state = state
        self.lat = lat
        self.lon = lon
    }

    /// The decimals of the cache key's coordinates.
    public static let keyDecimals = 2

    /// The cache key: coordinates rounded to 2 decimals (about 1 km), the providers' own grid scale.
    public var key: String { Self.key(lat: lat, lon: lon) }

    public static func key(lat: Double, lon: Double) -> String {
        "\(Rounding.round(lat, decimals: keyDecimals)),\(Rounding.round(lon, decimals: keyDecimals))"
    }

    /// A place the client gave by its coordinates, rounded to the cache key's decimals, or to `precision`
    /// when that is coarser, so that no event (place, request URL) records them more exactly than the
    /// cache needs or the client allowed.
    ///
    /// The weather of a cache key is shared by every point that rounds to it, so fetching it for the
    /// rounded point answers the same question.
    public static func fromClient(lat: Double, lon: Double, precision: Int) -> Place {
        let decimals = min(keyDecimals, max(0, precision))
        return Place(
            name: nil, country: nil, state: nil, lat: Rounding.round(lat, decimals: decimals),
            lon: Rounding.round(lon, decimals: decimals))
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = ["lat": .double(lat), "lon": .double(lon)]
        if let name { object["name"] = .string(name) }
        if let country { object["country"] = .string(country) }
        if let state { object["state"] = .string(state) }
        return .object(object)
    }

    public init(json: JSONValue, path: String) throws(FieldError) {
        let reader = try FieldReader(json, path: path)
        self.init(
            name: try reader.optionalString("name"), country: try reader.optionalString("country"),
            state: try reader.optionalString("state"), lat: try reader.double("lat"), lon: try reader.double("lon"))
    }
}

/// Current conditions in canonical units: °C, m/s, hPa, %, metres.
public struct CurrentConditions: Sendable, Equatable {
    /// The provider's observation time.
    public var observedAt: Timestamp
    public var temperature: Double
    public var feelsLike: Double?
    public var tempMin: Double?
    public var tempMax: Double?
    public var humidity: Double?
    public var pressure: Double?
    public var windSpeed: Double?
    public var windDirection: Double?
    public var windGust: Double?
    public var visibility: Double?
    public var condition: Condition
    public var sunrise: Timestamp?
    public var sunset: Timestamp?

    public init(
        observedAt: Timestamp, temperature: Double, feelsLike: Double? = nil, tempMin: Double? = nil,
        tempMax: Double? = nil, humidity: Double? = nil, pressure: Double? = nil, windSpeed: Double? = nil,
        windDirection: Double? = nil, windGust: Double? = nil, visibility: Double? = nil, condition: Condition,
        sunrise: Timestamp? = nil, sunset: Timestamp? = nil
    ) {
        self.observedAt = observedAt
        self.temperature = temperature
        self.feelsLike = feelsLike
        self.tempMin = tempMin
        self.tempMax = tempMax
        self.humidity = humidity
        self.pressure = pressure
        self.windSpeed = windSpeed
        self.windDirection = windDirection
        self.windGust = windGust
        self.visibility = visibility
        self.condition = condition
        self.sunrise = sunrise
        self.sunset = sunset
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "observedAt": .string(observedAt.description), "temperature": .double(temperature),
            "condition": condition.json,
        ]
        let optionals: [(String, Double?)] = [
            ("feelsLike", feelsLike), ("tempMin", tempMin), ("tempMax", tempMax), ("humidity", humidity),
            ("pressure", pressure), ("windSpeed", windSpeed), ("windDirection", windDirection),
            ("windGust", windGust), ("visibility", visibility),
        ]
        for (key, value) in optionals { if let value { object[key] = .double(value) } }
        if let sunrise { object["sunrise"] = .string(sunrise.description) }
        if let sunset { object["sunset"] = .string(sunset.description) }
        return .object(object)
    }

    public init(json: JSONValue, path: String) throws(FieldError) {
        let r = try FieldReader(json, path: path)
        self.init(
            observedAt: try r.timestamp("observedAt"), temperature: try r.double("temperature"),
            feelsLike: try r.optionalDouble("feelsLike"), tempMin: try r.optionalDouble("tempMin"),
            tempMax: try r.optionalDouble("tempMax"), humidity: try r.optionalDouble("humidity"),
            pressure: try r.optionalDouble("pressure"), windSpeed: try r.optionalDouble("windSpeed"),
            windDirection: try r.optionalDouble("windDirection"), windGust: try r.optionalDouble("windGust"),
            visibility: try r.optionalDouble("visibility"),
            condition: try Condition(json: r.members["condition"] ?? .null, path: "\(path).condition"),
            sunrise: try r.optionalTimestamp("sunrise"), sunset: try r.optionalTimestamp("sunset"))
    }
}

/// One forecast step (3-hourly), canonical units.
public struct ForecastEntry: Sendable, Equatable {
    public var time: Timestamp
    public var temperature: Double
    public var feelsLike: Double?
    public var humidity: Double?
    public var pressure: Double?
    public var windSpeed: Double?
    public var windDirection: Double?
    /// Probability of precipitation, 0…1.
    public var pop: Double?
    public var condition: Condition

    public init(
        time: Timestamp, temperature: Double, feelsLike: Double? = nil, humidity: Double? = nil,
        pressure: Double? = nil, windSpeed: Double? = nil, windDirection: Double? = nil, pop: Double? = nil,
        condition: Condition
    ) {
        self.time = time
        self.temperature = temperature
        self.feelsLike = feelsLike
        self.humidity = humidity
        self.pressure = pressure
        self.windSpeed = windSpeed
        self.windDirection = windDirection
        self.pop = pop
        self.condition = condition
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "time": .string(time.description), "temperature": .double(temperature), "condition": condition.json,
        ]
        let optionals: [(String, Double?)] = [
            ("feelsLike", feelsLike), ("humidity", humidity), ("pressure", pressure), ("windSpeed", windSpeed),
            ("windDirection", windDirection), ("pop", pop),
        ]
        for (key, value) in optionals { if let value { object[key] = .double(value) } }
        return .object(object)
    }

    public init(json: JSONValue, path: String) throws(FieldError) {
        let r = try FieldReader(json, path: path)
        self.init(
            time: try r.timestamp("time"), temperature: try r.double("temperature"),
            feelsLike: try r.optionalDouble("feelsLike"), humidity: try r.optionalDouble("humidity"),
            pressure: try r.optionalDouble("pressure"), windSpeed: try r.optionalDouble("windSpeed"),
            windDirection: try r.optionalDouble("windDirection"), pop: try r.optionalDouble("pop"),
            condition: try Condition(json: r.members["condition"] ?? .null, path: "\(path).condition"))
    }
}

/// One local day of a forecast: the place's own calendar date, low, high and dominant condition.
public struct DailySummary: Sendable, Equatable {
    /// `YYYY-MM-DD` in the place's time zone.
    public var date: String
    public var min: Double
    public var max: Double
    public var condition: Condition

    public init(date: String, min: Double, max: Double, condition: Condition) {
        self.date = date
        self.min = min
        self.max = max
        self.condition = condition
    }

    public var json: JSONValue {
        .object(["date": .string(date), "min": .double(min), "max": .double(max), "condition": condition.json])
    }

    public init(json: JSONValue, path: String) throws(FieldError) {
        let r = try FieldReader(json, path: path)
        self.init(
            date: try r.string("date"), min: try r.double("min"), max: try r.double("max"),
            condition: try Condition(json: r.members["condition"] ?? .null, path: "\(path).condition"))
    }

    /// Groups 3-hourly entries by local date (`utcOffsetSeconds` east of UTC): low, high, and the
    /// most frequent condition (the most severe-looking one on a tie, by code).
    public static func days(of entries: [ForecastEntry], utcOffsetSeconds: Int64, limit: Int = 5) -> [DailySummary] {
        var order: [String] = []
        var groups: [String: [ForecastEntry]] = [:]
        for entry in entries {
            let date = LocalDate.string(entry.time, utcOffsetSeconds: utcOffsetSeconds)
            if groups[date] == nil { order.append(date) }
            groups[date, default: []].append(entry)
        }
        return order.prefix(limit).compactMap { date in
            guard let items = groups[date], let first = items.first else { return nil }
            var counts: [Int64: Int] = [:]
            for item in items { counts[item.condition.code, default: 0] += 1 }
            let dominant =
                items.map(\.condition).max { a, b in
                    (counts[a.code] ?? 0, a.code) < (counts[b.code] ?? 0, b.code)
                } ?? first.condition
            return DailySummary(
                date: date, min: items.map(\.temperature).min() ?? first.temperature,
                max: items.map(\.temperature).max() ?? first.temperature, condition: dominant)
        }
    }
}

/// Calendar arithmetic in a place's own time zone, given as an offset from UTC.
public enum LocalDate {
    /// `YYYY-MM-DD` of `time` at `utcOffsetSeconds` east of UTC.
    public static func string(_ time: Timestamp, utcOffsetSeconds: Int64) -> String {
        let local = Timestamp(milliseconds: time.milliseconds + utcOffsetSeconds * 1000)
        return String(local.description.prefix(10))
    }
}

/// Rounding to a number of decimals, for cache keys and logged client coordinates.
public enum Rounding {
    public static func round(_ value: Double, decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
