import WeatherDomain

/// The 3-hourly steps a provider with hourly data gives (Open-Meteo, OpenWeatherMap One Call), made from its
/// hours in one way for both.
enum ThreeHourlySteps {
    /// 3-hourly steps kept, as OpenWeatherMap's 5-day / 3-hour forecast has.
    static let maxSteps = 40
    static let stepMilliseconds: Int64 = 3 * 3600 * 1000

    /// The 3-hourly steps of `hours`: the hours on a multiple of 3 h of the local clock, from the first on,
    /// at most `maxSteps`.
    ///
    /// Each stands for its three hours: its values are the first hour's, its precipitation the three
    /// hours' total and its chance of precipitation their highest, so that the steps of a day add up to
    /// its hours. Open-Meteo's hourly grid is whole local hours (with `timezone=auto`), so in a zone such
    /// as +05:30 no time at all falls on a UTC multiple of 3 h; lining the steps up with local midnight
    /// gives every local day the same eight steps. A grid with no such time (One Call's whole UTC hours at a
    /// half-hour offset) is stepped from its first time instead. `utcOffsetSeconds` is the offset at fetch
    /// time: the grid keeps its three hours across a change of daylight saving time (so that no hour is in
    /// two steps or none), and after it lies an hour off the local clock's multiples of 3 h.
    static func make(from hours: [ForecastEntry], utcOffsetSeconds: Int64) -> [ForecastEntry] {
        let times = hours.map(\.time)
        var steps: [ForecastEntry] = []
        for index in indices(times, utcOffsetSeconds: utcOffsetSeconds) {
            guard steps.count < maxSteps else { break }
            let end = hours[index].time.milliseconds + stepMilliseconds
            let covered = hours[index...].prefix { $0.time.milliseconds < end }
            var step = hours[index]
            let amounts = covered.compactMap(\.precipitation)
            step.precipitation = amounts.isEmpty ? nil : amounts.reduce(0, +)
            step.pop = covered.compactMap(\.pop).max()
            steps.append(step)
        }
        return steps
    }

    /// The indices of the 3-hourly steps: times on a multiple of 3 h of the local clock, from the first on.
    static func indices(_ times: [Timestamp], utcOffsetSeconds: Int64) -> [Int] {
        func isStep(_ time: Timestamp, from anchor: Int64) -> Bool {
            let remainder = (time.milliseconds - anchor) % stepMilliseconds
            return remainder == 0
        }
        guard
            let start = times.first(where: { isStep($0, from: -utcOffsetSeconds * 1000) }) ?? times.first
        else { return [] }
        return times.indices.filter { times[$0] >= start && isStep(times[$0], from: start.milliseconds) }
    }
}
