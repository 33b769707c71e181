import Providers
import WeatherDomain
import WeatherEngine

/// What a forecast answer shows, as typed values: the days not yet past (as many as asked), and the steps of
/// the asked type within them. `weather/forecast`'s JSON and MCP's summary line are both written from it.
///
/// One rule for what is past (`ForecastTimeline.isPast`): a step, a half or a day is left out once it ended at
/// or before `now`, so the day and the step running now are kept. `days` counts the days that are not past;
/// with it, the steps are those of the days kept (by the place's local date). Local dates and days follow the
/// place's time zone rules (`ForecastReport.zone`).
struct ForecastSelection {
    /// The steps an answer lists in `entries`.
    enum Steps {
        /// 3-hourly or hourly steps (at most `ForecastType.hourlySteps` hourly ones).
        case entries([ForecastEntry])
        /// Day and night halves.
        case halves([ForecastHalf])
        /// None: `type` `daily`, or `detail` `summary`.
        case none

        var count: Int? {
            switch self {
            case .entries(let entries): entries.count
            case .halves(let halves): halves.count
            case .none: nil
            }
        }
    }

    /// The place's clocks around the answer's `now`.
    let zone: ZoneOffsets
    let days: [DailySummary]
    let steps: Steps
    /// The first 3-hourly step not yet past (else the last, else the first hourly one): the answer's `observedAt`.
    let observedAt: Timestamp?

    /// What `weather` shows.
    init(_ weather: ForecastWeather) {
        self.init(
            weather.answer.value, now: weather.now, days: weather.days, detail: weather.detail, type: weather.type)
    }

    /// What a forecast of `report` answered at `now` shows: `days` days (all when nil), and with `detail` `full`
    /// the steps of `type`.
    init(_ report: ForecastReport, now: Timestamp, days: Int?, detail: ForecastDetail, type: ForecastType) {
        let zone = report.zone(around: now)
        let upcomingDays = report.daily.filter { day in
            LocalDate.end(of: day.date, zone: zone).map { !ForecastTimeline.isPast(end: $0, now: now) } ?? true
        }
        let kept = days.map { Array(upcomingDays.prefix($0)) } ?? upcomingDays
        let lastDate = days == nil ? nil : kept.last?.date ?? ""
        let inKeptDays = { (date: String) in lastDate.map { date <= $0 } ?? true }
        let local = { (time: Timestamp) in LocalDate.string(time, zone: zone) }
        let threeHourly = report.entries.filter {
            !ForecastTimeline.isPast(
                end: Timestamp(milliseconds: $0.time.milliseconds + ForecastTimeline.threeHours), now: now)
        }
        self.zone = zone
        self.days = kept
        observedAt = (threeHourly.first ?? report.entries.last ?? report.hourly.first)?.time
        guard detail == .full else {
            steps = .none
            return
        }
        switch type {
        case .threeHourly:
            steps = .entries(threeHourly.filter { inKeptDays(local($0.time)) })
        case .hourly:
            let hours = report.hourly.filter {
                !ForecastTimeline.isPast(
                    end: Timestamp(milliseconds: $0.time.milliseconds + ForecastTimeline.hour), now: now)
                    && inKeptDays(local($0.time))
            }
            steps = .entries(Array(hours.prefix(ForecastType.hourlySteps)))
        case .twiceDaily:
            steps = .halves(
                ForecastHalf.halves(
                    of: ForecastTimeline.finest(report), lat: report.place.lat, lon: report.place.lon, zone: zone
                ).filter { !ForecastTimeline.isPast(end: $0.end, now: now) && inKeptDays($0.date) })
        case .daily:
            steps = .none
        }
    }
}
