/// The optional measurements that current conditions and a forecast step share, in canonical units (°C, m/s,
/// hPa, %, metres, mm, `pop` 0…1): one list, written to the log and formatted for answers in one place each.
package protocol Measurements {
    var feelsLike: Double? { get }
    var dewPoint: Double? { get }
    var humidity: Double? { get }
    var pressure: Double? { get }
    var cloudCover: Double? { get }
    var visibility: Double? { get }
    var windSpeed: Double? { get }
    var windDirection: Double? { get }
    var windGust: Double? { get }
    var uvIndex: Double? { get }
    var precipitation: Double? { get }
    var pop: Double? { get }
    var isDay: Bool? { get }
}

extension Measurements {
    /// Writes every measurement there is into `object` under its own name; one the provider did not give
    /// stays absent.
    func writeMeasurements(into object: inout [String: JSONValue]) {
        object.set("feelsLike", feelsLike)
        object.set("dewPoint", dewPoint)
        object.set("humidity", humidity)
        object.set("pressure", pressure)
        object.set("cloudCover", cloudCover)
        object.set("visibility", visibility)
        object.set("windSpeed", windSpeed)
        object.set("windDirection", windDirection)
        object.set("windGust", windGust)
        object.set("uvIndex", uvIndex)
        object.set("precipitation", precipitation)
        object.set("pop", pop)
        object.set("isDay", isDay)
    }
}
