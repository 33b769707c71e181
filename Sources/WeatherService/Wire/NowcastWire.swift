import Providers
import WeatherDomain
import WeatherEngine

extension NowcastAnswer {
    /// `{location, covered, source, resolution, native, steps, units, summary, fetchedAt, cached, stale,
    /// attribution, passedOver}`; where no source serves the place, `{location, covered: false, passedOver,
    /// message}`. Intensities are per hour in the reader's precipitation unit (`mm/h` or `in/h`).
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "location": place.json,
            "passedOver": .array(
                passedOver.map { ["source": .string($0.source.rawValue), "reason": .string($0.reason)] }),
        ]
        guard let answer, let summary else {
            object["covered"] = false
            object["message"] = .string(sentence)
            return .object(object)
        }
        let nowcast = answer.value
        let perHour = "\(units.precipitation.rawValue)/h"
        object["covered"] = true
        object["source"] = .string(nowcast.source.rawValue)
        object["resolution"] = .int(Int64(nowcast.resolutionMinutes))
        object["native"] = .bool(nowcast.steps.allSatisfy(\.native))
        object["steps"] = .array(
            nowcast.steps.map { step in
                var item: [String: JSONValue] = [
                    "time": .string(step.time.description),
                    "intensity": .double(WeatherFormatting.precipitation(step.intensity, units)),
                    "native": .bool(step.native),
                ]
                if let probability = step.probability { item["probability"] = .double(probability) }
                return .object(item)
            })
        object["units"] = ["intensity": .string(perHour)]
        var described: [String: JSONValue] = [:]
        summary.write(into: &described)
        described["peak"] = .double(WeatherFormatting.precipitation(summary.peak, units))
        described["sentence"] = .string(sentence)
        if let kind = nowcast.kind { described["precipitation"] = .string(kind.rawValue) }
        object["summary"] = .object(described)
        if let coverage = nowcast.radarCoverage { object["radarCoverage"] = .string(coverage) }
        object["fetchedAt"] = .string(answer.fetchedAt.description)
        object["cached"] = .bool(answer.source == "cache")
        object["stale"] = .bool(answer.stale)
        object["attribution"] = .string(Self.attribution(nowcast.source))
        return .object(object)
    }

    /// One line for people: the place, and the sentence (with the source, and its staleness).
    var summaryLine: String {
        let name = place.name ?? place.key
        guard let answer else { return "\(name): \(sentence)" }
        let staleness = answer.stale ? " (stale: the source could not be reached; as of \(answer.fetchedAt))" : ""
        return "\(name): \(sentence) (\(answer.value.source.rawValue), \(answer.value.resolutionMinutes)-minute steps)"
            + staleness
    }

    /// The credit each source asks for.
    static func attribution(_ source: Nowcast.Source) -> String {
        switch source {
        case .metNorway: MetNorwayProvider.attribution
        case .openWeatherMap: "Weather data provided by OpenWeather"
        case .openMeteo: "Weather data by Open-Meteo.com, CC BY 4.0"
        }
    }
}
