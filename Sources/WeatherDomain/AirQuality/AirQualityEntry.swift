/// Air quality at one time, in canonical units; every value the source lacks is nil, never 0.
///
/// Units: μg/m³ for the gases and particles (carbon monoxide included, as both Open-Meteo and
/// OpenWeatherMap send it), grains/m³ for pollen, and no unit for the indices and the UV index.
package struct AirQualityEntry: Sendable, Equatable {
    package var time: Timestamp
    /// The European Air Quality Index (0 and up; above 100 is extremely poor). See `EuropeanAQILevel`.
    package var europeanAqi: Double?
    /// The US EPA Air Quality Index (0–500).
    package var usAqi: Double?
    /// OpenWeatherMap's own index, 1 (good) to 5 (very poor); only OpenWeatherMap sends it.
    package var owmAqi: Double?
    /// Particles under 2.5 µm, μg/m³ (`pm2_5` in JSON, as the providers name it).
    package var pm25: Double?
    /// Particles under 10 µm, μg/m³.
    package var pm10: Double?
    /// O₃, μg/m³.
    package var ozone: Double?
    /// NO₂, μg/m³.
    package var nitrogenDioxide: Double?
    /// SO₂, μg/m³.
    package var sulphurDioxide: Double?
    /// CO, μg/m³.
    package var carbonMonoxide: Double?
    package var uvIndex: Double?
    /// Pollen, grains/m³: Open-Meteo has it for Europe only, in season.
    package var alderPollen: Double?
    package var birchPollen: Double?
    package var grassPollen: Double?
    package var mugwortPollen: Double?
    package var olivePollen: Double?
    package var ragweedPollen: Double?

    package init(
        time: Timestamp, europeanAqi: Double? = nil, usAqi: Double? = nil, owmAqi: Double? = nil, pm25: Double? = nil,
        pm10: Double? = nil, ozone: Double? = nil, nitrogenDioxide: Double? = nil, sulphurDioxide: Double? = nil,
        carbonMonoxide: Double? = nil, uvIndex: Double? = nil, alderPollen: Double? = nil, birchPollen: Double? = nil,
        grassPollen: Double? = nil, mugwortPollen: Double? = nil, olivePollen: Double? = nil,
        ragweedPollen: Double? = nil
    ) {
        self.time = time
        self.europeanAqi = europeanAqi
        self.usAqi = usAqi
        self.owmAqi = owmAqi
        self.pm25 = pm25
        self.pm10 = pm10
        self.ozone = ozone
        self.nitrogenDioxide = nitrogenDioxide
        self.sulphurDioxide = sulphurDioxide
        self.carbonMonoxide = carbonMonoxide
        self.uvIndex = uvIndex
        self.alderPollen = alderPollen
        self.birchPollen = birchPollen
        self.grassPollen = grassPollen
        self.mugwortPollen = mugwortPollen
        self.olivePollen = olivePollen
        self.ragweedPollen = ragweedPollen
    }

    /// One optional value of an entry, as a key path providers and the JSON coding fill in by table.
    package typealias Member = any WritableKeyPath<AirQualityEntry, Double?> & Sendable

    /// The JSON member name of each value, in the order they are documented.
    package static let members: [(name: String, value: Member)] = [
        ("europeanAqi", \.europeanAqi), ("usAqi", \.usAqi), ("owmAqi", \.owmAqi), ("pm2_5", \.pm25),
        ("pm10", \.pm10), ("ozone", \.ozone), ("nitrogenDioxide", \.nitrogenDioxide),
        ("sulphurDioxide", \.sulphurDioxide), ("carbonMonoxide", \.carbonMonoxide), ("uvIndex", \.uvIndex),
        ("alderPollen", \.alderPollen), ("birchPollen", \.birchPollen), ("grassPollen", \.grassPollen),
        ("mugwortPollen", \.mugwortPollen), ("olivePollen", \.olivePollen), ("ragweedPollen", \.ragweedPollen),
    ]

    /// The level of `europeanAqi`, when there is one.
    package var europeanLevel: EuropeanAQILevel? { europeanAqi.map(EuropeanAQILevel.init(index:)) }

    /// Whether the entry holds no value at all (only a time).
    package var isEmpty: Bool { Self.members.allSatisfy { self[keyPath: $0.value] == nil } }

    package var json: JSONValue {
        var object: [String: JSONValue] = ["time": .string(time.description)]
        for (name, value) in Self.members { if let number = self[keyPath: value] { object[name] = .double(number) } }
        return .object(object)
    }

    package init(json: JSONValue, path: String) throws(FieldError) {
        let r = try FieldReader(json, path: path)
        self.init(time: try r.timestamp("time"))
        for (name, value) in Self.members { self[keyPath: value] = try r.optionalDouble(name) }
    }
}
