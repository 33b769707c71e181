/// One forecast step (hourly or 3-hourly), canonical units: °C, m/s, hPa, %, metres, mm.
///
/// The instantaneous values are the provider's at `time`; `precipitation` and `pop` are for the whole
/// step. Every member but the time, the temperature and the condition is optional: nil when the
/// provider gave no value, never a made-up 0.
package struct ForecastEntry: Sendable, Equatable, Measurements {
    /// The start of the step.
    package var time: Timestamp
    package var temperature: Double
    /// The apparent temperature (HA's `apparent_temperature`).
    package var feelsLike: Double?
    package var dewPoint: Double?
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
    /// Precipitation over the step, mm.
    package var precipitation: Double?
    /// Probability of precipitation, 0…1.
    package var pop: Double?
    /// Whether it is daytime at `time`, as the provider says.
    package var isDay: Bool?
    package var condition: Condition

    package init(
        time: Timestamp, temperature: Double, feelsLike: Double? = nil, dewPoint: Double? = nil,
        humidity: Double? = nil, pressure: Double? = nil, cloudCover: Double? = nil, visibility: Double? = nil,
        windSpeed: Double? = nil, windDirection: Double? = nil, windGust: Double? = nil, uvIndex: Double? = nil,
        precipitation: Double? = nil, pop: Double? = nil, isDay: Bool? = nil, condition: Condition
    ) {
        self.time = time
        self.temperature = temperature
        self.feelsLike = feelsLike
        self.dewPoint = dewPoint
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
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "time": .string(time.description), "temperature": .double(temperature), "condition": condition.json,
        ]
        writeMeasurements(into: &object)
        return .object(object)
    }

    package init(json: JSONValue, path: String) throws(FieldError) {
        let r = try FieldReader(json, path: path)
        self.init(
            time: try r.timestamp("time"), temperature: try r.double("temperature"),
            feelsLike: try r.optionalDouble("feelsLike"), dewPoint: try r.optionalDouble("dewPoint"),
            humidity: try r.optionalDouble("humidity"), pressure: try r.optionalDouble("pressure"),
            cloudCover: try r.optionalDouble("cloudCover"), visibility: try r.optionalDouble("visibility"),
            windSpeed: try r.optionalDouble("windSpeed"), windDirection: try r.optionalDouble("windDirection"),
            windGust: try r.optionalDouble("windGust"), uvIndex: try r.optionalDouble("uvIndex"),
            precipitation: try r.optionalDouble("precipitation"), pop: try r.optionalDouble("pop"),
            isDay: try r.optionalBool("isDay"),
            condition: try Condition(json: r.members["condition"] ?? .null, path: "\(path).condition"))
    }
}
