/// The precipitation of the next minutes at one place, from one source: the steps of a nowcast.
///
/// Intensities are in mm/h whatever the source sends (a 15-minute amount is scaled to its hourly rate);
/// each step covers `resolutionMinutes` from its `time`.
package struct Nowcast: Sendable, Equatable {
    /// Which source a nowcast comes from.
    package enum Source: String, Sendable, CaseIterable {
        /// MET Norway's Nowcast 2.0: radar-based, 5-minute steps, inside its radar coverage only.
        case metNorway = "met-norway"
        /// OpenWeatherMap One Call 3.0's `minutely`: 1-minute steps.
        case openWeatherMap = "openweathermap"
        /// Open-Meteo's `minutely_15`: native in Central Europe and North America, interpolated elsewhere.
        case openMeteo = "open-meteo"
    }

    package var source: Source
    /// The minutes each step covers: 1, 5 or 15.
    package var resolutionMinutes: Int
    /// The steps, oldest first.
    package var steps: [NowcastStep]
    /// What falls, when the source says; nil: precipitation of a kind the source does not name.
    package var kind: PrecipitationKind?
    /// MET Norway's word on its radar at the place (`ok`, `temporarily unavailable`, `no coverage`); nil from
    /// the other sources. Only `ok` makes the steps a radar nowcast.
    package var radarCoverage: String? = nil

    package init(source: Source, resolutionMinutes: Int, steps: [NowcastStep], kind: PrecipitationKind? = nil) {
        self.source = source
        self.resolutionMinutes = resolutionMinutes
        self.steps = steps
        self.kind = kind
    }

    /// The steps from the one holding `now` on, at most `horizonMinutes` ahead.
    package func ahead(of now: Timestamp, horizonMinutes: Int) -> [NowcastStep] {
        let stepMs = Int64(resolutionMinutes) * 60_000
        let end = now.milliseconds + Int64(horizonMinutes) * 60_000
        return steps.filter { $0.time.milliseconds + stepMs > now.milliseconds && $0.time.milliseconds < end }
    }
}

/// One step of a nowcast.
package struct NowcastStep: Sendable, Equatable {
    /// When the step begins.
    package var time: Timestamp
    /// The precipitation rate, mm/h.
    package var intensity: Double
    /// The chance of precipitation in percent, where the source gives one.
    package var probability: Double?
    /// True for the source's own measured or modelled value at this step; false where it interpolates.
    package var native: Bool

    package init(time: Timestamp, intensity: Double, probability: Double? = nil, native: Bool = true) {
        self.time = time
        self.intensity = intensity
        self.probability = probability
        self.native = native
    }

    /// Whether anything falls: at least `PrecipitationIntensity.wet` mm/h.
    package var isWet: Bool { intensity >= PrecipitationIntensity.wet }
}

/// What falls.
package enum PrecipitationKind: String, Sendable, CaseIterable {
    case rain, snow, sleet

    /// The word a sentence uses; an unnamed kind is "precipitation".
    package static func word(_ kind: PrecipitationKind?) -> String { kind?.rawValue ?? "precipitation" }
}

/// The WMO intensity classes of precipitation by rate (WMO-No. 8): light below 2.5 mm/h, moderate
/// below 10 mm/h, heavy from 10 mm/h (the WMO's "violent", above 50 mm/h, is counted as heavy).
package enum PrecipitationIntensity: String, Sendable, CaseIterable {
    case light, moderate, heavy

    /// The least rate counted as precipitation at all, mm/h: a trace below it is dry.
    package static let wet = 0.1

    package init(rate: Double) {
        self = rate < 2.5 ? .light : rate < 10 ? .moderate : .heavy
    }
}
