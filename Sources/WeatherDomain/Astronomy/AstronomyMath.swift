#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Time scales and angle helpers shared by `SolarDay` and `MoonPhase`; pure arithmetic, no clock.
enum AstronomyMath {
    static let millisecondsPerDay: Int64 = 86_400_000
    /// The Julian day of the Unix epoch, 1970-01-01T00:00:00Z.
    static let unixEpochJulianDay = 2_440_587.5
    /// The Julian day of J2000.0, 2000-01-01T12:00:00 (the epoch of the NOAA and Meeus series).
    static let j2000 = 2_451_545.0

    /// The Julian day (UT) of a point in time.
    static func julianDay(_ t: Timestamp) -> Double {
        Double(t.milliseconds) / Double(millisecondsPerDay) + unixEpochJulianDay
    }

    /// The point in time of a Julian day (UT), to the millisecond.
    static func timestamp(julianDay: Double) -> Timestamp {
        Timestamp(milliseconds: Int64(((julianDay - unixEpochJulianDay) * Double(millisecondsPerDay)).rounded()))
    }

    /// Julian centuries since J2000.0.
    static func centuries(julianDay: Double) -> Double { (julianDay - j2000) / 36_525 }

    /// ΔT = TT − UT in seconds (Espenak and Meeus' polynomial for 2005–2050, their long-term parabola
    /// elsewhere): about a minute today, so it only matters to the Moon's phase instants.
    static func deltaT(julianDay: Double) -> Double {
        let year = 2000 + (julianDay - j2000) / 365.25
        if (2005...2050).contains(year) {
            let t = year - 2000
            return 62.92 + 0.322_17 * t + 0.005_589 * t * t
        }
        let u = (year - 1820) / 100
        return -20 + 32 * u * u
    }

    static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
    static func sinDeg(_ degrees: Double) -> Double { sin(radians(degrees)) }
    static func cosDeg(_ degrees: Double) -> Double { cos(radians(degrees)) }

    /// An angle in degrees reduced to `0..<360`.
    static func normalized(_ degrees: Double) -> Double {
        let r = degrees.truncatingRemainder(dividingBy: 360)
        return r < 0 ? r + 360 : r
    }
}
