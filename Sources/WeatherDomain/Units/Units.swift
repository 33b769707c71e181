/// The unit system answers are given in: the unit of every quantity the user has not overridden.
package enum Units: String, Sendable, Equatable, CaseIterable {
    /// °C, m/s, hPa, mm, km.
    case metric
    /// °F, mph, inHg, in, mi.
    case imperial
    /// K, m/s, hPa, mm, km (the providers' "standard").
    case standard

    /// The unit of each quantity in this system.
    package var choice: UnitChoice { UnitChoice(system: self) }
}

/// A quantity whose unit the user can choose, by the member name answers and settings give it.
package enum Quantity: String, Sendable, Equatable, CaseIterable {
    case temperature
    case windSpeed
    case pressure
    case precipitation
    case visibility
}

/// A unit of temperature; canonical values are °C.
package enum TemperatureUnit: String, Sendable, Equatable, CaseIterable {
    case celsius = "°C"
    case fahrenheit = "°F"
    case kelvin = "K"

    /// A temperature in °C, in this unit.
    package func value(celsius: Double) -> Double {
        switch self {
        case .celsius: celsius
        case .fahrenheit: celsius * 9 / 5 + 32
        case .kelvin: celsius + 273.15
        }
    }

    /// A temperature difference in °C (kelvins), in this unit: scaled, never offset.
    package func difference(celsius: Double) -> Double {
        self == .fahrenheit ? celsius * 9 / 5 : celsius
    }
}

/// A unit of wind speed; canonical values are m/s.
package enum SpeedUnit: String, Sendable, Equatable, CaseIterable {
    case metresPerSecond = "m/s"
    case kilometresPerHour = "km/h"
    case milesPerHour = "mph"
    case knots = "kn"
    /// The Beaufort force, a whole number from 0 to 12.
    case beaufort = "Bft"

    /// A speed in m/s, in this unit.
    package func value(metresPerSecond: Double) -> Double {
        switch self {
        case .metresPerSecond: metresPerSecond
        case .kilometresPerHour: metresPerSecond * 3.6
        case .milesPerHour: metresPerSecond / 0.447_04
        case .knots: metresPerSecond * 3.6 / 1.852
        case .beaufort: Double(Self.beaufort(metresPerSecond: metresPerSecond))
        }
    }

    /// The lowest speed of forces 1 to 12, in m/s, as the WMO gives them (to 0.1 m/s).
    package static let beaufortThresholds: [Double] = [
        0.3, 1.6, 3.4, 5.5, 8.0, 10.8, 13.9, 17.2, 20.8, 24.5, 28.5, 32.7,
    ]

    /// The Beaufort force of a mean wind of `metresPerSecond`, read to 0.1 m/s as the WMO's table is.
    package static func beaufort(metresPerSecond: Double) -> Int {
        let speed = Rounding.round(metresPerSecond, decimals: 1)
        return beaufortThresholds.filter { speed >= $0 }.count
    }
}

/// A unit of air pressure; canonical values are hPa.
package enum PressureUnit: String, Sendable, Equatable, CaseIterable {
    case hectopascals = "hPa"
    case inchesOfMercury = "inHg"
    case millimetresOfMercury = "mmHg"

    /// mmHg per hPa: 760 over 1013.25 (a millimetre of mercury as 1/760 of the standard atmosphere), to
    /// nine places; every pressure from 870 to 1085 hPa in 0.1 steps rounds to 2 decimals as with the
    /// exact ratio (0.750062 rounded 75 of them 0.01 high).
    package static let millimetresOfMercuryPerHectopascal = 0.750_061_683

    /// A pressure in hPa, in this unit.
    package func value(hectopascals: Double) -> Double {
        switch self {
        case .hectopascals: hectopascals
        case .inchesOfMercury: hectopascals * 0.029_53
        case .millimetresOfMercury: hectopascals * Self.millimetresOfMercuryPerHectopascal
        }
    }
}

/// A unit of precipitation depth; canonical values are mm.
package enum PrecipitationUnit: String, Sendable, Equatable, CaseIterable {
    case millimetres = "mm"
    case inches = "in"

    /// A depth in mm, in this unit.
    package func value(millimetres: Double) -> Double { self == .inches ? millimetres / 25.4 : millimetres }
}

/// A unit of visibility; canonical values are metres.
package enum VisibilityUnit: String, Sendable, Equatable, CaseIterable {
    case kilometres = "km"
    case miles = "mi"

    /// A distance in metres, in this unit.
    package func value(metres: Double) -> Double { self == .miles ? metres / 1609.344 : metres / 1000 }
}
