import WeatherDomain
import WeatherService

/// What the dashboard shows of one place: the engine's answers for it, each its result or its error, gathered
/// at once.
struct DashboardPlace: Sendable {
    typealias Answer = Result<JSONValue, RPCError>

    /// Its name when no answer names it (a favorite's).
    var fallbackName: String
    /// `current location` or `favorite`.
    var role: String
    var current: Answer
    var days: Answer
    var nowcast: Answer
    var warnings: Answer
    var air: Answer
    /// The forecast as `weatherd chart` draws it; nil when the place has no chart here or none could be had.
    var chart: String?

    /// How many days ahead the list shows.
    static let daysAhead = 7

    /// Asks for everything about the place given by `params`, at once.
    static func gather(
        _ methods: HTTPMethods, params: [String: JSONValue], name: String, role: String, chart withChart: Bool
    ) async -> DashboardPlace {
        var daily = params
        daily["type"] = "daily"
        daily["detail"] = "summary"
        daily["days"] = .int(Int64(daysAhead))
        async let current = ask(methods, "weather/current", params)
        async let days = ask(methods, "weather/forecast", daily)
        async let nowcast = ask(methods, "weather/nowcast", params)
        async let warnings = ask(methods, "warnings/list", params)
        async let air = ask(methods, "weather/airQuality", params)
        async let chart = withChart ? Self.chart(methods, params) : nil
        return await DashboardPlace(
            fallbackName: name, role: role, current: current, days: days, nowcast: nowcast, warnings: warnings,
            air: air, chart: chart)
    }

    private static func ask(_ methods: HTTPMethods, _ method: String, _ params: [String: JSONValue]) async -> Answer {
        do throws(RPCError) {
            return .success(try await methods.call(method, params))
        } catch {
            return .failure(error)
        }
    }

    /// The SVG chart of the three-hourly forecast and its hours, as `weatherd chart` draws it.
    private static func chart(_ methods: HTTPMethods, _ params: [String: JSONValue]) async -> String? {
        var steps = params
        steps["type"] = "threeHourly"
        steps["days"] = 5
        guard case .success(let forecast) = await ask(methods, "weather/forecast", steps) else { return nil }
        steps["type"] = "hourly"
        let hourly = try? await ask(methods, "weather/forecast", steps).get()
        let svg = Chart.svg(forecast, hourly: hourly)
        // Inline in the page: the document without its XML declaration.
        guard svg.hasPrefix("<?xml"), let end = svg.firstIndex(of: "\n") else { return svg }
        return String(svg[svg.index(after: end)...])
    }

    /// The place's name: as the weather answer gives it, else the fallback.
    var name: String {
        if case .success(let answer) = current, let location = answer["location"] {
            return OneLine.placeName(location)
        }
        return fallbackName
    }
}
