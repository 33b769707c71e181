import WeatherDomain
import WeatherEngine

/// How much a weather tool returns: `summary` (the line, and a minimal result with what it says),
/// `standard` (the default: the answer as `weather/current` gives it, a forecast's days) or `full`
/// (everything the answer has: a forecast's steps of its `type` too).
enum MCPDetail: String, CaseIterable, Sendable {
    case summary, standard, full

    /// The forecast detail the engine is asked for.
    var forecast: ForecastDetail { self == .full ? .full : .summary }

    /// The `detail` argument's schema.
    static func property(_ description: String) -> JSONValue {
        ["type": "string", "enum": .array(allCases.map { .string($0.rawValue) }), "description": .string(description)]
    }

    /// The members of the current conditions a summary result keeps: those its line says.
    private static let currentMembers: Set<String> = [
        "temperature", "windSpeed", "windDirection", "condition", "isDay",
    ]

    /// The members of a forecast day a summary result keeps.
    private static let dayMembers: Set<String> = ["date", "min", "max", "precipitation", "pop", "condition"]

    /// The members of either answer a summary result keeps besides those.
    private static let answerMembers: Set<String> = [
        "location", "units", "current", "daily", "type", "observedAt", "fetchedAt", "source", "stale", "provider",
        "attribution",
    ]

    /// `answer` as much as this detail keeps of it: the minimal result for `summary`, else all of it.
    func keep(_ answer: JSONValue) -> JSONValue {
        guard self == .summary, case .object(var members) = answer else { return answer }
        members = members.filter { Self.answerMembers.contains($0.key) }
        if case .object(let current)? = members["current"] {
            members["current"] = .object(current.filter { Self.currentMembers.contains($0.key) })
        }
        if let days = members["daily"]?.arrayValue {
            members["daily"] = .array(
                days.map { day in
                    guard case .object(let object) = day else { return day }
                    return .object(object.filter { Self.dayMembers.contains($0.key) })
                })
        }
        return .object(members)
    }
}
