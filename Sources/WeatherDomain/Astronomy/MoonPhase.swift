/// The Moon's phase and age from the instants of true new and full moon (Meeus, *Astronomical
/// Algorithms*, chapter 49: the mean phase of lunation `k` corrected by the periodic terms in the Sun's
/// and Moon's mean anomalies, the Moon's argument of latitude and its node; the small planetary terms,
/// under two minutes together, are left out). The instants agree with published ones to a few minutes.
///
/// `phase` runs linearly from 0 at new moon to 0.5 at the next full moon and on to 1 at the following
/// new moon, so it is exactly 0 and 0.5 at the published instants even though the two halves of a
/// lunation differ in length by up to about a day. `age` is the time since the last new moon, in
/// days (0 up to the lunation's length, 29.3–29.8 days).
package enum MoonPhase {
    /// The mean synodic month in days.
    package static let synodicMonth = 29.530_588_861

    /// The phase (`0..<1`) and age (days since new moon) at `t`.
    package static func at(_ t: Timestamp) -> (phase: Double, age: Double) {
        let julianDay = AstronomyMath.julianDay(t)
        let jde = julianDay + AstronomyMath.deltaT(julianDay: julianDay) / 86_400
        var k = Int((jde - 2_451_550.097_66) / synodicMonth + 0.5) - 1
        while newMoon(k) > jde { k -= 1 }
        while newMoon(k + 1) <= jde { k += 1 }
        let new = newMoon(k)
        let full = fullMoon(k)
        let next = newMoon(k + 1)
        let age = jde - new
        let phase = jde < full ? 0.5 * age / (full - new) : 0.5 + 0.5 * (jde - full) / (next - full)
        return (min(max(phase, 0), (1.0).nextDown), age)
    }

    /// The phase and age at local noon of `localDate` (`YYYY-MM-DD`) for clocks that keep the offsets of
    /// `zone`; nil when `localDate` is not a valid date.
    package static func onLocalDate(_ localDate: String, zone: ZoneOffsets) -> (phase: Double, age: Double)? {
        LocalDate.instant(on: localDate, at: 43_200_000, zone: zone).map(at)
    }

    /// The instant (UT) of the new moon of lunation `k` (0 is 2000-01-06).
    package static func newMoonTime(lunation k: Int) -> Timestamp { timestamp(jde: newMoon(k)) }

    /// The instant (UT) of the full moon after the new moon of lunation `k`.
    package static func fullMoonTime(lunation k: Int) -> Timestamp { timestamp(jde: fullMoon(k)) }

    static func timestamp(jde: Double) -> Timestamp {
        AstronomyMath.timestamp(julianDay: jde - AstronomyMath.deltaT(julianDay: jde) / 86_400)
    }

    /// JDE of the true new moon of lunation `k`.
    static func newMoon(_ k: Int) -> Double { truePhase(Double(k), full: false) }

    /// JDE of the true full moon of lunation `k` (half a lunation after its new moon).
    static func fullMoon(_ k: Int) -> Double { truePhase(Double(k) + 0.5, full: true) }

    /// One periodic term: coefficients (new moon, full moon) in days, the power of E, and the
    /// multiples of M, M′, F and Ω in its argument.
    private typealias Term = (new: Double, full: Double, e: Int, m: Double, mp: Double, f: Double, omega: Double)

    private static let terms: [Term] = [
        (-0.407_20, -0.406_14, 0, 0, 1, 0, 0), (0.172_41, 0.173_02, 1, 1, 0, 0, 0),
        (0.016_08, 0.016_14, 0, 0, 2, 0, 0), (0.010_39, 0.010_43, 0, 0, 0, 2, 0),
        (0.007_39, 0.007_34, 1, -1, 1, 0, 0), (-0.005_14, -0.005_15, 1, 1, 1, 0, 0),
        (0.002_08, 0.002_09, 2, 2, 0, 0, 0), (-0.001_11, -0.001_11, 0, 0, 1, -2, 0),
        (-0.000_57, -0.000_57, 0, 0, 1, 2, 0), (0.000_56, 0.000_56, 1, 1, 2, 0, 0),
        (-0.000_42, -0.000_42, 0, 0, 3, 0, 0), (0.000_42, 0.000_42, 1, 1, 0, 2, 0),
        (0.000_38, 0.000_38, 1, 1, 0, -2, 0), (-0.000_24, -0.000_24, 1, -1, 2, 0, 0),
        (-0.000_17, -0.000_17, 0, 0, 0, 0, 1), (-0.000_07, -0.000_07, 0, 2, 1, 0, 0),
        (0.000_04, 0.000_04, 0, 0, 2, -2, 0), (0.000_04, 0.000_04, 0, 3, 0, 0, 0),
        (0.000_03, 0.000_03, 0, 1, 1, -2, 0), (0.000_03, 0.000_03, 0, 0, 2, 2, 0),
        (-0.000_03, -0.000_03, 0, 1, 1, 2, 0), (0.000_03, 0.000_03, 0, -1, 1, 2, 0),
        (-0.000_02, -0.000_02, 0, -1, 1, -2, 0), (-0.000_02, -0.000_02, 0, 1, 3, 0, 0),
        (0.000_02, 0.000_02, 0, 0, 4, 0, 0),
    ]

    /// Meeus 49.1 and the new/full moon corrections for (fractional) lunation `k`.
    private static func truePhase(_ k: Double, full: Bool) -> Double {
        let t = k / 1_236.85
        let t2 = t * t
        let t3 = t2 * t
        let t4 = t3 * t
        let mean =
            2_451_550.097_66 + synodicMonth * k + 0.000_154_37 * t2 - 0.000_000_150 * t3 + 0.000_000_000_73 * t4
        let e = 1 - 0.002_516 * t - 0.000_007_4 * t2
        let m = 2.553_4 + 29.105_356_70 * k - 0.000_001_4 * t2 - 0.000_000_11 * t3
        let mp = 201.564_3 + 385.816_935_28 * k + 0.010_758_2 * t2 + 0.000_012_38 * t3 - 0.000_000_058 * t4
        let f = 160.710_8 + 390.670_502_84 * k - 0.001_611_8 * t2 - 0.000_002_27 * t3 + 0.000_000_011 * t4
        let omega = 124.774_6 - 1.563_755_88 * k + 0.002_067_2 * t2 + 0.000_002_15 * t3
        var correction = 0.0
        for term in terms {
            let argument = AstronomyMath.normalized(term.m * m + term.mp * mp + term.f * f + term.omega * omega)
            let factor = term.e == 0 ? 1 : term.e == 1 ? e : e * e
            correction += (full ? term.full : term.new) * factor * AstronomyMath.sinDeg(argument)
        }
        return mean + correction
    }
}
