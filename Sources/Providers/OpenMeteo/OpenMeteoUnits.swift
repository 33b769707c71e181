import WeatherDomain

/// The unit labels of one Open-Meteo section (`current_units`, `hourly_units`, `daily_units`).
///
/// A missing section or label means the unit weatherd asked for; an unknown label is never a guess,
/// since a wrong unit would silently mislead every client: on a core variable (the temperature) it
/// fails the answer, on any other it leaves that variable out, with a warning (`secondary`).
struct SectionUnits {
    let labels: FieldReader

    init(_ value: JSONValue?, path: String) throws(FieldError) {
        labels = try FieldReader(value, path: path, allowAbsent: true)
    }

    func temperature(_ key: String) throws(FieldError) -> TemperatureUnit {
        try TemperatureUnit(label: labels.optionalString(key), path: "\(labels.path).\(key)")
    }

    func speed(_ key: String) throws(FieldError) -> SpeedUnit {
        try SpeedUnit(label: labels.optionalString(key), path: "\(labels.path).\(key)")
    }

    func precipitation(_ key: String) throws(FieldError) -> PrecipitationUnit {
        try PrecipitationUnit(label: labels.optionalString(key), path: "\(labels.path).\(key)")
    }

    func distance(_ key: String) throws(FieldError) -> DistanceUnit {
        try DistanceUnit(label: labels.optionalString(key), path: "\(labels.path).\(key)")
    }

    /// The unit of a secondary variable read by `read`, or nil, with a warning naming the label and the
    /// variable left out, when its label is unknown.
    func secondary<Unit>(
        _ key: String, _ warnings: inout [String], _ read: (String) throws(FieldError) -> Unit
    ) -> Unit? {
        do throws(FieldError) {
            return try read(key)
        } catch {
            warnings.append("\(error.description): \(key) left out")
            return nil
        }
    }
}

/// A precipitation unit Open-Meteo may answer in (`precipitation_unit`).
enum PrecipitationUnit: Sendable {
    case millimetres, inches

    /// `mm` or `inch`; nil means what weatherd asked for, mm.
    init(label: String?, path: String) throws(FieldError) {
        switch label {
        case nil, "mm": self = .millimetres
        case "inch", "in": self = .inches
        case let other?: throw FieldError(path: path, problem: "is an unknown precipitation unit \"\(other)\"")
        }
    }

    /// The amount in mm, weatherd's canonical unit.
    func millimetres(_ value: Double) -> Double { self == .inches ? value * 25.4 : value }
}

/// A distance unit Open-Meteo may give visibility in.
enum DistanceUnit: Sendable {
    case metres, feet

    /// `m` or `ft`; nil means metres.
    init(label: String?, path: String) throws(FieldError) {
        switch label {
        case nil, "m": self = .metres
        case "ft": self = .feet
        case let other?: throw FieldError(path: path, problem: "is an unknown distance unit \"\(other)\"")
        }
    }

    /// The distance in metres, weatherd's canonical unit.
    func metres(_ value: Double) -> Double { self == .feet ? value * 0.3048 : value }
}
