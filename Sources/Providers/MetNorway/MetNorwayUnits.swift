import WeatherDomain

/// The units of a Locationforecast answer (`properties.meta.units`), checked against the canonical ones weatherd
/// reads its values in.
///
/// MET Norway names each variable's unit, and they are weatherd's own: °C (`celsius`), m/s, hPa, mm, % and
/// degrees. A variable the answer names another unit for is left out of every step, with a warning (the
/// temperature's is core: another unit fails the answer); a variable it names no unit for is read in the unit
/// MET Norway documents for it.
struct MetNorwayUnits {
    /// The unit label weatherd reads each variable in.
    static let expected: [String: String] = [
        "air_temperature": "celsius", "dew_point_temperature": "celsius", "air_pressure_at_sea_level": "hPa",
        "relative_humidity": "%", "cloud_area_fraction": "%", "wind_speed": "m/s", "wind_speed_of_gust": "m/s",
        "wind_from_direction": "degrees", "precipitation_amount": "mm", "probability_of_precipitation": "%",
    ]

    /// The variables left out, since the answer gives them in another unit.
    private(set) var skipped: Set<String> = []
    /// Each variable left out, with why.
    private(set) var warnings: [String] = []

    /// - Throws: `FieldError` when the temperature's unit is not `celsius`, or a label is not a string.
    init(_ units: FieldReader) throws(FieldError) {
        for (key, label) in Self.expected.sorted(by: { $0.key < $1.key }) {
            guard let given = try units.optionalString(key), given != label else { continue }
            if key == "air_temperature" {
                throw FieldError(path: "\(units.path).\(key)", problem: "is \"\(given)\", not celsius")
            }
            skipped.insert(key)
            warnings.append("\(units.path).\(key) is an unknown unit \"\(given)\" (not \(label)): \(key) left out")
        }
    }

    /// Whether `key`'s values are read.
    func usable(_ key: String) -> Bool { !skipped.contains(key) }
}
