import WeatherDomain

/// Reading the three nowcast sources' bodies into `Nowcast`s, in mm/h. No I/O here: the caller fetches.
package enum NowcastDecoders {
    /// MET Norway's answer about its radar: only `ok` means the steps are the radar's.
    package enum RadarCoverage: String, Sendable, Equatable {
        case ok
        case temporarilyUnavailable = "temporarily unavailable"
        case noCoverage = "no coverage"
    }

    /// MET Norway Nowcast 2.0 (`/weatherapi/nowcast/2.0/complete`, GeoJSON): 5-minute steps of
    /// `precipitation_rate` (mm/h), and `meta.radar_coverage`. The kind of precipitation comes from the
    /// first step's `next_1_hours` symbol code (`lightrain`, `snowshowers_day`, `sleet`…), when it names one.
    package static func metNorway(_ body: [UInt8]) throws(ProviderError) -> (Nowcast, RadarCoverage) {
        try ResponseBody.decode(body, provider: Nowcast.Source.metNorway.rawValue) {
            (root) throws(FieldError) -> (Nowcast, RadarCoverage) in
            let properties = try FieldReader(
                try FieldReader(root, path: "$").members["properties"], path: "$.properties")
            let meta = try FieldReader(properties.members["meta"], path: "$.properties.meta")
            let coverageText = try meta.string("radar_coverage")
            guard let coverage = RadarCoverage(rawValue: coverageText) else {
                throw FieldError(path: "$.properties.meta.radar_coverage", problem: "is unknown: \(coverageText)")
            }
            if let unit = try FieldReader(meta.members["units"], path: "\(meta.path).units", allowAbsent: true)
                .optionalString("precipitation_rate"), unit != "mm/h"
            {
                throw FieldError(path: "\(meta.path).units.precipitation_rate", problem: "is \(unit), not mm/h")
            }
            var steps: [NowcastStep] = []
            var kind: PrecipitationKind?
            for (index, item) in try ResponseBody.array(properties, "timeseries").enumerated() {
                let path = "$.properties.timeseries[\(index)]"
                let step = try FieldReader(item, path: path)
                let data = try FieldReader(step.members["data"], path: "\(path).data")
                let instant = try FieldReader(data.members["instant"], path: "\(path).data.instant")
                let details = try FieldReader(instant.members["details"], path: "\(instant.path).details")
                // A step without a rate (the radar's edge) says nothing: it is left out, not read as dry.
                guard let rate = try details.optionalDouble("precipitation_rate") else { continue }
                steps.append(NowcastStep(time: try step.timestamp("time"), intensity: max(0, rate)))
                let nextHour = try FieldReader(
                    data.members["next_1_hours"], path: "\(path).data.next_1_hours", allowAbsent: true)
                if index == 0, let summary = nextHour.members["summary"] {
                    kind = try symbolKind(try FieldReader(summary, path: "\(nextHour.path).summary"))
                }
            }
            return (Nowcast(source: .metNorway, resolutionMinutes: 5, steps: steps, kind: kind), coverage)
        }
    }

    private static func symbolKind(_ summary: FieldReader) throws(FieldError) -> PrecipitationKind? {
        guard let code = try summary.optionalString("symbol_code") else { return nil }
        if code.contains("sleet") { return .sleet }
        if code.contains("snow") { return .snow }
        if code.contains("rain") { return .rain }
        return nil
    }

    /// OpenWeatherMap One Call 3.0's `minutely`: one step a minute of `precipitation` (mm/h). Nil when the body
    /// has no `minutely` (a place or plan without it). The kind is that of `current.weather` when it is
    /// rain, drizzle or snow.
    package static func openWeatherMap(_ body: [UInt8]) throws(ProviderError) -> Nowcast? {
        try ResponseBody.decode(body, provider: Nowcast.Source.openWeatherMap.rawValue) {
            (root) throws(FieldError) -> Nowcast? in
            let top = try FieldReader(root, path: "$")
            guard let minutely = try ResponseBody.optionalArray(top, "minutely") else { return nil }
            var steps: [NowcastStep] = []
            for (index, item) in minutely.enumerated() {
                let step = try FieldReader(item, path: "$.minutely[\(index)]")
                steps.append(
                    NowcastStep(
                        time: Timestamp(milliseconds: try step.int("dt") * 1000),
                        intensity: max(0, try step.double("precipitation"))))
            }
            let current = try FieldReader(top.members["current"], path: "$.current", allowAbsent: true)
            let main = try ResponseBody.optionalArray(current, "weather")?.first.flatMap { $0["main"]?.stringValue }
            let kind: PrecipitationKind? =
                switch main {
                case "Rain", "Drizzle", "Thunderstorm": .rain
                case "Snow": .snow
                default: nil
                }
            return Nowcast(source: .openWeatherMap, resolutionMinutes: 1, steps: steps, kind: kind)
        }
    }

    /// Open-Meteo's `minutely_15`: `precipitation` is the amount of the 15 minutes *before* each time (mm),
    /// so a step begins 15 minutes before its label and its rate is four times the amount. `rain` and
    /// `snowfall` (cm), when asked for, name the kind. `native` labels the steps (see `openMeteoIsNative`).
    package static func openMeteo(_ body: [UInt8], native: Bool) throws(ProviderError) -> Nowcast {
        try ResponseBody.decode(body, provider: Nowcast.Source.openMeteo.rawValue) { (root) throws(FieldError) in
            let top = try FieldReader(root, path: "$")
            let offset = try top.optionalInt("utc_offset_seconds") ?? 0
            let block = try FieldReader(top.members["minutely_15"], path: "$.minutely_15")
            let units = try FieldReader(
                top.members["minutely_15_units"], path: "$.minutely_15_units", allowAbsent: true)
            if let unit = try units.optionalString("precipitation"), unit != "mm" {
                throw FieldError(path: "$.minutely_15_units.precipitation", problem: "is \(unit), not mm")
            }
            let times = try ResponseBody.array(block, "time")
            guard let amounts = try ResponseBody.numbers(block, "precipitation", count: times.count) else {
                throw FieldError(path: "$.minutely_15.precipitation", problem: "is required")
            }
            let rain = try ResponseBody.numbers(block, "rain", count: times.count)
            let snow = try ResponseBody.numbers(block, "snowfall", count: times.count)
            var steps: [NowcastStep] = []
            var (rained, snowed) = (false, false)
            for (index, value) in times.enumerated() {
                // A step the model has no value for says nothing: it is left out, not read as dry.
                guard let amount = amounts[index] else { continue }
                let end = try ResponseBody.time(
                    value, path: "$.minutely_15.time[\(index)]", utcOffsetSeconds: offset)
                steps.append(
                    NowcastStep(
                        time: Timestamp(milliseconds: end.milliseconds - 15 * 60_000), intensity: max(0, amount) * 4,
                        native: native))
                rained = rained || (rain?[index] ?? 0) > 0
                snowed = snowed || (snow?[index] ?? 0) > 0
            }
            let kind: PrecipitationKind? = rained && snowed ? .sleet : rained ? .rain : snowed ? .snow : nil
            return Nowcast(source: .openMeteo, resolutionMinutes: 15, steps: steps, kind: kind)
        }
    }

    /// Whether Open-Meteo's 15-minute steps are a model's own there, not interpolated from hourly data:
    /// in Central Europe (the domain of DWD's ICON-D2, 43.2–58.1° N, 3.9° W–20.3° E) and North America
    /// (NOAA's HRRR over the contiguous United States, 21.1–52.6° N, 134.1–60.9° W). Open-Meteo documents its
    /// 15-minute data as real in those two regions and interpolated elsewhere; the boxes are the models'
    /// domains rounded outwards, so a point near their edges may be labelled native where it is not.
    package static func openMeteoIsNative(lat: Double, lon: Double) -> Bool {
        let centralEurope = (43.2...58.1).contains(lat) && (-3.9...20.3).contains(lon)
        let northAmerica = (21.1...52.6).contains(lat) && (-134.1 ... -60.9).contains(lon)
        return centralEurope || northAmerica
    }
}
