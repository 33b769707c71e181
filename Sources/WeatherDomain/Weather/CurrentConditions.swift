/// Current conditions in canonical units: °C, m/s, hPa, %, metres, mm.
///
/// Every member but the time, the temperature and the condition is optional: nil when the provider
/// gave no value, never a made-up 0.
package struct CurrentConditions: Sendable, Equatable, Measurements {
    /// The provider's observation time.
    package var observedAt: Timestamp
    package var temperature: Double
    /// The apparent temperature (HA's `apparent_temperature`).
    package var feelsLike: Double?
    package var dewPoint: Double?
    /// Today's low, from the provider's daily figures.
    package var tempMin: Double?
    /// Today's high, from the provider's daily figures.
    package var tempMax: Double?
    package var humidity: Double?
    /// Sea-level pressure.
    package var pressure: Double?
    /// Cloud cover, %.
    package var cloudCover: Double?
    package var visibility: Double?
    package var windSpeed: Double?
    /// Where the wind comes from, degrees (HA's `wind_bearing`).
    package var windDirection: Double?
    package var windGust: Double?
    package var uvIndex: Double?
    /// Precipitation of the provider's last interval (Open-Meteo: the preceding hour; OpenWeatherMap:
    /// the last hour's rain and snow), mm.
    package var precipitation: Double?
    /// Probability of precipitation, 0…1.
    package var pop: Double?
    /// Whether it is daytime, as the provider says.
    package var isDay: Bool?
    package var condition: Condition
    package var sunrise: Timestamp?
    package var sunset: Timestamp?

    package init(
        observedAt: Timestamp, temperature: Double, feelsLike: Double? = nil, dewPoint: Double? = nil,
        tempMin: Double? = nil, tempMax: Double? = nil, humidity: Double? = nil, pressure: Double? = nil,
        cloudCover: Double? = nil, visibility: Double? = nil, windSpeed: Double? = nil, windDirection: Double? = nil,
        windGust: Double? = nil, uvIndex: Double? = nil, precipitation: Double? = nil, pop: Double? = nil,
        isDay: Bool? = nil, condition: Condition, sunrise: Timestamp? = nil, sunset: Timestamp? = nil
    ) {
        self.observedAt = observedAt
        self.temperature = temperature
        self.feelsLike = feelsLike
        self.dewPoint = dewPoint
        self.tempMin = tempMin
        self.tempMax = tempMax
        self.humidity = humidity
        self.pressure = pressure
        self.cloudCover = cloudCover
        self.visibility = visibility
        self.windSpeed = windSpeed
        self.windDirection = windDirection
        self.windGust = windGust
        self.uvIndex = uvIndex
        self.precipitation = precipitation
        self.pop = pop
        self.isDay = isDay
        self.condition = condition
        self.sunrise = sunrise
        self.sunset = sunset
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "observedAt": .string(observedAt.description), "temperature": .double(temperature),
            "condition": condition.json,
        ]
        writeMeasurements(into: &object)
        object.set("tempMin", tempMin)
        object.set("tempMax", tempMax)
        object.set("sunrise", sunrise)
        object.set("sunset", sunset)
        return .object(object)
    }

    package init(json: JSONValue, path: String) throws(FieldError) {
        let r = try FieldReader(json, path: path)
        self.init(
            observedAt: try r.timestamp("observedAt"), temperature: try r.double("temperature"),
            feelsLike: try r.optionalDouble("feelsLike"), dewPoint: try r.optionalDouble("dewPoint"),
            tempMin: try r.optionalDouble("tempMin"), tempMax: try r.optionalDouble("tempMax"),
            humidity: try r.optionalDouble("humidity"), pressure: try r.optionalDouble("pressure"),
            cloudCover: try r.optionalDouble("cloudCover"), visibility: try r.optionalDouble("visibility"),
            windSpeed: try r.optionalDouble("windSpeed"), windDirection: try r.optionalDouble("windDirection"),
            windGust: try r.optionalDouble("windGust"), uvIndex: try r.optionalDouble("uvIndex"),
            precipitation: try r.optionalDouble("precipitation"), pop: try r.optionalDouble("pop"),
            isDay: try r.optionalBool("isDay"),
            condition: try Condition(json: r.members["condition"] ?? .null, path: "\(path).condition"),
            sunrise: try r.optionalTimestamp("sunrise"), sunset: try r.optionalTimestamp("sunset"))
    }
}
