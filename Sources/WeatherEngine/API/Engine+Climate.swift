import Providers
import WeatherDomain
import WeatherRuntime

/// What is normal at a place for a calendar day, its records, and how the day's weather compares, as
/// `weather/climate` and MCP's `get_climate` answer it.
package struct ClimateAnswer: Sendable {
    package var place: Place
    /// The local date asked about.
    package var date: String
    package var climate: Climate
    /// The last day the archive page holds (records are up to it).
    package var through: String
    /// The forecast's high and low for `date`, when the forecast holds it.
    package var forecastHigh: Double?
    package var forecastLow: Double?
    /// The current temperature, when `date` is today.
    package var currentTemperature: Double?
    package var units: UnitChoice
    package var fetchedAt: Timestamp
    /// `network` for a fresh call, `cache` otherwise.
    package var source: String
    /// Why part of the answer is missing: the forecast or the current weather could not be had, so there is
    /// no forecast or anomaly (the normal and records stand without them).
    package var warnings: [String] = []

    /// The forecast high less the normal high, °C.
    package var highAnomaly: Double? { difference(forecastHigh, climate.normalHigh) }
    /// The forecast low less the normal low, °C.
    package var lowAnomaly: Double? { difference(forecastLow, climate.normalLow) }

    private func difference(_ value: Double?, _ normal: Double?) -> Double? {
        guard let value, let normal else { return nil }
        return value - normal
    }
}

extension Engine {
    /// The 1991–2020 normal and the records since 1940 of `date`'s calendar day at a place (default: today
    /// there), from one archive page of every day since 1940 cached for a year, and the forecast's high and
    /// low for the date against the normal.
    ///
    /// - Throws: `FieldError` (`-32602`) for a malformed date or one outside 1940-01-01…today.
    package func climate(_ place: PlaceQuery, date: String?, units: Units?, origin: Origin) -> Completion<ClimateAnswer>
    {
        Completion {
            let resolved = try await self.resolve(place, cause: origin.cause)
            var warnings: [String] = []
            // The weather's calls only add the forecast and the anomaly: when the provider fails, the normal
            // and records still answer from the archive, with a warning saying what is missing.
            let forecast = await Self.partial(&warnings, "no forecast or anomaly") {
                try await self.fetcher.forecast(at: resolved, cause: origin.cause).value
            }
            let current = await Self.partial(&warnings, "no current temperature") {
                try await self.fetcher.current(at: resolved, cause: origin.cause).value
            }
            try Task.checkCancellation()
            let now = self.clock.timestamp()
            let zone = await self.cache.read { Self.zone(of: resolved.key, in: $0, around: now) }
            let today = LocalDate.string(now, zone: zone)
            let date = date ?? today
            let number = try PastRange.day(date, "params.date", today: today)
            let through = PastRange.lastFinal(today: today)
            let page = try await self.fetcher.climate(at: resolved, through: through, cause: origin.cause)
            let (_, month, day) = CivilDate.fromDays(number)
            guard let climate = page.value.climate(month: Int(month), day: Int(day)) else {
                throw EngineError.inconsistent("no calendar day \(month)-\(day)")
            }
            let forecastDay = forecast?.daily.first { $0.date == date }
            return ClimateAnswer(
                place: resolved, date: date, climate: climate, through: page.value.through,
                forecastHigh: forecastDay?.max,
                forecastLow: forecastDay?.min,
                currentTemperature: date == today ? current?.current.temperature : nil,
                units: try await self.units(units), fetchedAt: page.fetchedAt, source: page.source, warnings: warnings)
        }
    }

    /// The value of `body`, or nil with "`missing`: the reason" added to `warnings` when it fails (not when
    /// the task is cancelled: that is thrown on by the caller's check).
    private static func partial<T>(_ warnings: inout [String], _ missing: String, _ body: () async throws -> T) async
        -> T?
    {
        do {
            return try await body()
        } catch is CancellationError {
            return nil
        } catch {
            warnings.append("\(missing): \(error)")
            return nil
        }
    }

    /// The climate of each local date in `dates` at a place, only when its climate page is already cached (no
    /// call; empty otherwise): for the normals beside a forecast's days and today's in current weather.
    package func cachedClimates(at key: String, dates: [String]) async -> [String: Climate] {
        guard let table = await self.cache.read({ $0.climates[key]?.value }) else { return [:] }
        var climates: [String: Climate] = [:]
        for date in dates {
            guard let number = LocalDate.dayNumber(of: date) else { continue }
            let (_, month, day) = CivilDate.fromDays(number)
            climates[date] = table.climate(month: Int(month), day: Int(day))
        }
        return climates
    }
}

/// Today's high at a place against its normal, for the summary line of current weather.
package struct TodayAgainstNormal: Sendable, Equatable {
    package var month: Int
    package var day: Int
    /// Today's high (°C), from the provider's daily figures.
    package var high: Double
    /// Today's high less the 1991–2020 normal high, °C.
    package var anomaly: Double
}

extension Engine {
    /// Today's high in `current` against the place's normal high, when the place's climate is already cached:
    /// asking costs no call. Nil without a cached climate, a normal, or a high for today.
    package func todayAgainstNormal(_ current: CurrentWeather) async -> TodayAgainstNormal? {
        let report = current.answer.value
        guard let high = report.current.tempMax else { return nil }
        let now = clock.timestamp()
        let zone = ZoneOffsets.place(timezone: report.timezone, utcOffsetSeconds: report.utcOffsetSeconds, around: now)
        let today = LocalDate.string(now, zone: zone)
        guard let climate = await cachedClimates(at: report.place.key, dates: [today])[today],
            let normal = climate.normalHigh
        else { return nil }
        return TodayAgainstNormal(month: climate.month, day: climate.day, high: high, anomaly: high - normal)
    }
}
