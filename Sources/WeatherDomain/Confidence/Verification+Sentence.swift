extension Verification {
    /// The lead time a sentence names when it has enough days: three days ahead, the middle of the week scored.
    package static let sentenceLead = 3

    /// How people know a provider: `Open-Meteo`, `OpenWeatherMap`, `MET Norway`; its identifier otherwise.
    package static func providerName(_ provider: String) -> String {
        switch provider {
        case "open-meteo": "Open-Meteo"
        case "openweathermap": "OpenWeatherMap"
        case "met-norway": "MET Norway"
        default: provider
        }
    }

    /// The score one sentence tells: the day-`sentenceLead` highs when some provider has at least `minimumDays` of
    /// them, else the lead time with the most days that has (the shortest on a tie), from the provider with the most
    /// days there (the first by name on a tie); nil when no lead time of any provider has enough.
    package static func headline(_ scores: [ProviderScore]) -> (provider: String, lead: LeadScore)? {
        let candidates = scores.flatMap { score in
            score.leads.filter { $0.high.meanAbsoluteError != nil }.map { (provider: score.provider, lead: $0) }
        }
        let lead =
            candidates.contains { $0.lead.lead == sentenceLead }
            ? sentenceLead
            : candidates.max { ($0.lead.high.count, -$0.lead.lead) < ($1.lead.high.count, -$1.lead.lead) }?.lead.lead
        guard let lead else { return nil }
        return candidates.filter { $0.lead.lead == lead }.max { a, b in
            (a.lead.high.count, b.provider) < (b.lead.high.count, a.provider)
        }
    }

    /// "Open-Meteo's day-3 highs here were off by 1.4 °C on average over 41 days (too warm by 0.3 °C)." in `units`;
    /// with too little history, how much there is and how much a figure needs.
    package static func sentence(_ scores: [ProviderScore], units: UnitChoice) -> String {
        let unit = units.temperature
        let degrees = { (celsius: Double) in "\(AlertText.number(unit.difference(celsius: celsius))) \(unit.rawValue)" }
        guard let (provider, lead) = headline(scores), let error = lead.high.meanAbsoluteError,
            let bias = lead.high.bias
        else {
            let most = scores.flatMap(\.leads).map(\.high.count).max() ?? 0
            guard most > 0 else {
                return "No forecast weatherd fetched here has been observed yet: a day is verified once it has "
                    + "passed, from forecasts fetched 1 to 7 days before it."
            }
            return "Too little history here yet: at most \(most) \(most == 1 ? "day" : "days") of forecast highs "
                + "verified at any one lead time; a figure needs at least \(minimumDays)."
        }
        let leaning =
            abs(unit.difference(celsius: bias)) < 0.05
            ? "with no bias either way"
            : "too \(bias > 0 ? "warm" : "cold") by \(degrees(abs(bias)))"
        return "\(providerName(provider))'s day-\(lead.lead) highs here were off by \(degrees(error)) on average "
            + "over \(lead.high.count) days (\(leaning))."
    }
}
