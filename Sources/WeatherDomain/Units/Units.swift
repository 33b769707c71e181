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

    /// mmHg per hPa: exactly 760 over 1013.25. weatherd's millimetre of mercury is the torr, 1/760 of the
    /// standard atmosphere (101 325 Pa); the conventional millimetre of mercury (133.322387415 Pa) is larger by
    /// about 1.4 parts in 10 million, under 0.0002 mmHg at any air pressure, which no answer's two decimals show.
    package static let millimetresOfMercuryPerHectopascal = 760 / 1013.25

    /// Pascals in an inch of mercury: the conventional inch of mercury (25.4 mm of mercury of 13 595.1 kg/m³
    /// under standard gravity, 3386.38864 Pa) to the millipascal, as NIST and the WMO give it. inHg = hPa ×
    /// 100 ÷ 3386.389: 1017.44 hPa is 30.04 inHg (the four-figure 0.02953 made it 30.05).
    package static let pascalsPerInchOfMercury = 3386.389

    /// A pressure in hPa, in this unit.
    package func value(hectopascals: Double) -> Double {
        switch self {
        case .hectopascals: hectopascals
        case .inchesOfMercury: hectopascals * 100 / Self.pascalsPerInchOfMercury
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
