#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Sun on one local calendar day at a place: civil dawn, sunrise, solar noon, sunset and civil dusk.
///
/// Computed with NOAA's solar calculator algorithm (after Jean Meeus, *Astronomical Algorithms*):
/// Julian century → geometric mean longitude and anomaly → equation of centre → apparent longitude
/// → corrected obliquity → declination and equation of time → hour angle. Sunrise and sunset are
/// when the Sun's centre is 90.833° from the zenith (the upper limb on an ideal horizon, with
/// standard refraction); civil dawn and dusk when it is 96° (6° below the horizon). Each event is
/// first estimated with the Sun's position at solar noon, then refined three times with its position
/// at the event's own time (NOAA refines once); the results agree with published almanacs to a
/// minute or so (see AstronomyTests).
///
/// **Which day.** The events are those around the solar noon that falls on `localDate` in the
/// place's clock time (`ZoneOffsets`: the offset valid at each instant); a sunrise or dusk may therefore fall on the local day
/// before or after (e.g. dusk after midnight in a northern summer).
///
/// **Polar day and night.** Each of the four crossings is looked for on its own: it happens when the
/// Sun, with its declination at that moment, reaches the crossing's altitude on that side of the
/// meridian. When there is neither sunrise nor sunset, `polar` says which: `.day` when the Sun is
/// above the horizon at solar noon (it never sets), `.night` when it is below (it never rises). On the
/// first and last day of a polar day or night only one of the two may exist, and `polar` is nil, as
/// in the almanacs (USNO: at Tromsø in 2014 the Sun rose at 00:13 on 18 May and next set on 25 July).
/// Civil dawn and dusk are independent of sunrise and sunset: in a polar night the Sun may still
/// climb above −6° (twilight without sunrise, so `dawn` and `dusk` are set), and in a white night it
/// may never sink below −6° (so they are nil while `sunrise` and `sunset` are set). Solar noon always
/// exists.
package struct SolarDay: Sendable, Equatable {
    /// The Sun stays above (`day`) or below (`night`) the horizon for the whole day.
    package enum Polar: String, Sendable, Equatable {
        case day
        case night
    }

    /// Start of morning civil twilight (Sun's centre 6° below the horizon); nil when never reached.
    package var dawn: Timestamp?
    /// The upper limb rises; nil when it does not that day (polar day or night, or their first or last day).
    package var sunrise: Timestamp?
    /// Solar noon: the Sun crosses the meridian, highest in the sky.
    package var zenith: Timestamp
    /// The upper limb sets; nil when it does not that day.
    package var sunset: Timestamp?
    /// End of evening civil twilight; nil when never reached.
    package var dusk: Timestamp?
    /// Set when there is neither sunrise nor sunset.
    package var polar: Polar?

    package init(
        dawn: Timestamp?, sunrise: Timestamp?, zenith: Timestamp, sunset: Timestamp?, dusk: Timestamp?, polar: Polar?
    ) {
        self.dawn = dawn
        self.sunrise = sunrise
        self.zenith = zenith
        self.sunset = sunset
        self.dusk = dusk
        self.polar = polar
    }

    /// The Sun's zenith distance at sunrise and sunset: 90° + 34′ refraction + 16′ semi-diameter.
    package static let sunriseZenith = 90.833
    /// The Sun's zenith distance at civil dawn and dusk.
    package static let civilZenith = 96.0

    /// The Sun on `localDate` (`YYYY-MM-DD`) at a place (degrees, north and east positive) whose
    /// clocks keep the offsets of `zone`; nil when `localDate` is not a valid date.
    package static func compute(lat: Double, lon: Double, localDate: String, zone: ZoneOffsets) -> SolarDay? {
        guard localDate.utf8.count == 10, let midnight = Timestamp(rfc3339: localDate + "T00:00:00Z") else {
            return nil
        }
        let latitude = min(90, max(-90, lat))
        let localDay = midnight.milliseconds / AstronomyMath.millisecondsPerDay
        let day = Self.utcDay(of: localDay, lon: lon, zone: zone)
        let noon = Self.transit(utcDay: day, lon: lon)
        func event(_ zenithDistance: Double, morning: Bool) -> Double? {
            var minutes = noon
            for pass in 0..<4 {
                let sun = SolarPosition(julianDay: Self.julianDay(utcDay: day, minutes: minutes))
                switch Self.hourAngle(latitude: latitude, declination: sun.declination, zenith: zenithDistance) {
                case .angle(let h):
                    minutes = 720 - 4 * (lon + (morning ? h : -h)) - sun.equationOfTime
                case .always, .never:
                    // Not reached with noon's declination: it may still be by midnight's, so look there once.
                    guard pass == 0 else { return nil }
                    minutes = noon + (morning ? -720 : 720)
                }
            }
            return minutes
        }
        let sunrise = event(sunriseZenith, morning: true)
        let sunset = event(sunriseZenith, morning: false)
        var polar: Polar?
        if sunrise == nil, sunset == nil {
            let declination = SolarPosition(julianDay: Self.julianDay(utcDay: day, minutes: noon)).declination
            polar = 90 - abs(latitude - declination) > 90 - sunriseZenith ? .day : .night
        }
        func time(_ minutes: Double?) -> Timestamp? {
            minutes.map { Self.timestamp(utcDay: day, minutes: $0) }
        }
        return SolarDay(
            dawn: time(event(civilZenith, morning: true)), sunrise: time(sunrise),
            zenith: Self.timestamp(utcDay: day, minutes: noon), sunset: time(sunset),
            dusk: time(event(civilZenith, morning: false)), polar: polar)
    }

    /// The UTC day whose solar noon falls on `localDay` in the place's clock time: the offset and the
    /// longitude usually agree to within an hour or two, but not everywhere (e.g. +14:00 at 157° W).
    static func utcDay(of localDay: Int64, lon: Double, zone: ZoneOffsets) -> Int64 {
        let localNoon = localDay * AstronomyMath.millisecondsPerDay + 43_200_000
        var best = localDay
        var bestDistance = Int64.max
        for candidate in (localDay - 2)...(localDay + 2) {
            let local = zone.wallClock(at: timestamp(utcDay: candidate, minutes: transit(utcDay: candidate, lon: lon)))
                .milliseconds
            if Int64.floorDiv(local, AstronomyMath.millisecondsPerDay) == localDay { return candidate }
            if abs(local - localNoon) < bestDistance { (best, bestDistance) = (candidate, abs(local - localNoon)) }
        }
        return best
    }

    /// Solar noon in minutes after 00:00 UTC of `utcDay`, refined with the equation of time at noon.
    static func transit(utcDay: Int64, lon: Double) -> Double {
        var minutes = 720 - 4 * lon
        for _ in 0..<2 {
            minutes =
                720 - 4 * lon - SolarPosition(julianDay: julianDay(utcDay: utcDay, minutes: minutes)).equationOfTime
        }
        return minutes
    }

    enum HourAngle: Equatable {
        /// Degrees from the meridian at which the Sun is at the zenith distance asked for.
        case angle(Double)
        /// The Sun stays closer to the zenith than asked all day.
        case always
        /// The Sun never comes that close to the zenith.
        case never
    }

    /// The hour angle at which the Sun's centre is `zenith` degrees from the zenith.
    static func hourAngle(latitude: Double, declination: Double, zenith: Double) -> HourAngle {
        // cos H = (cos z − sin φ sin δ) / (cos φ cos δ); compared without dividing, so the poles work.
        let numerator =
            AstronomyMath.cosDeg(zenith) - AstronomyMath.sinDeg(latitude) * AstronomyMath.sinDeg(declination)
        let denominator = AstronomyMath.cosDeg(latitude) * AstronomyMath.cosDeg(declination)
        if numerator > denominator { return .never }
        if numerator < -denominator { return .always }
        guard denominator > 0 else { return .never }
        return .angle(AstronomyMath.degrees(acos(min(1, max(-1, numerator / denominator)))))
    }

    static func julianDay(utcDay: Int64, minutes: Double) -> Double {
        Double(utcDay) + minutes / 1440 + AstronomyMath.unixEpochJulianDay
    }

    /// A time `minutes` after 00:00 UTC of `utcDay`, rounded to the second.
    static func timestamp(utcDay: Int64, minutes: Double) -> Timestamp {
        Timestamp(milliseconds: utcDay * AstronomyMath.millisecondsPerDay + Int64((minutes * 60).rounded()) * 1000)
    }
}

/// The Sun's declination and the equation of time at an instant, as in NOAA's solar calculator.
struct SolarPosition: Sendable {
    /// Degrees north of the celestial equator.
    var declination: Double
    /// Apparent minus mean solar time, in minutes.
    var equationOfTime: Double

    init(julianDay: Double) {
        let t = AstronomyMath.centuries(julianDay: julianDay)
        let meanLongitude = AstronomyMath.normalized(280.466_46 + t * (36_000.769_83 + 0.000_303_2 * t))
        let meanAnomaly = 357.529_11 + t * (35_999.050_29 - 0.000_153_7 * t)
        let eccentricity = 0.016_708_634 - t * (0.000_042_037 + 0.000_000_126_7 * t)
        let centre =
            AstronomyMath.sinDeg(meanAnomaly) * (1.914_602 - t * (0.004_817 + 0.000_014 * t))
            + AstronomyMath.sinDeg(2 * meanAnomaly) * (0.019_993 - 0.000_101 * t)
            + AstronomyMath.sinDeg(3 * meanAnomaly) * 0.000_289
        let trueLongitude = meanLongitude + centre
        let omega = 125.04 - 1_934.136 * t
        let apparentLongitude = trueLongitude - 0.005_69 - 0.004_78 * AstronomyMath.sinDeg(omega)
        let seconds = 21.448 - t * (46.815 + t * (0.000_59 - t * 0.001_813))
        let meanObliquity = 23 + (26 + seconds / 60) / 60
        let obliquity = meanObliquity + 0.002_56 * AstronomyMath.cosDeg(omega)
        declination = AstronomyMath.degrees(
            asin(AstronomyMath.sinDeg(obliquity) * AstronomyMath.sinDeg(apparentLongitude)))
        let y = pow(tan(AstronomyMath.radians(obliquity / 2)), 2)
        let l0 = AstronomyMath.radians(meanLongitude)
        let m = AstronomyMath.radians(meanAnomaly)
        let e = eccentricity
        let radians =
            y * sin(2 * l0) - 2 * e * sin(m) + 4 * e * y * sin(m) * cos(2 * l0) - 0.5 * y * y * sin(4 * l0)
            - 1.25 * e * e * sin(2 * m)
        equationOfTime = 4 * AstronomyMath.degrees(radians)
    }
}
