import WeatherDomain
import WeatherEngine
import WeatherRuntime
import WeatherService
import WeatherWire

/// `GET /{place}` on the HTTP face: wttr.in's URLs answered from weatherd's cache, for the scripts and status
/// bars written for wttr.in, with the formatter `weatherd now --format` uses.
///
/// `/{place}` is a city (`Berlin`, `S%C3%A3o%20Paulo`) or `LAT,LON`; `/` is the current location, which is
/// private (it needs the token). `?format=` takes the named formats 1…4 or %-codes (default `weatherd now`'s);
/// `?m` and `?M` ask for metric units, `?u` for USCS. A format that cannot be met is a 400 with the reason.
package struct WttrRoute: Sendable {
    let methods: HTTPMethods
    let clock: any RuntimeClock

    package init(engine: Engine) {
        methods = HTTPMethods(engine: engine)
        clock = engine.clock
    }

    package func answer(_ request: HTTPRequest, _ target: HTTPTarget, authorized: Bool) async -> HTTPResponse {
        let place = target.segments.first
        guard place != nil || authorized else { return HTTPFace.unauthorized() }
        let format = target.query("format") ?? OneLine.standard
        if format == "j1" { return await json(request, place: place) }
        let line: OneLine
        do {
            line = try OneLine(format)
        } catch {
            return HTTPResponse(.badRequest, text: "\(error)\n")
        }
        var params: [String: JSONValue]
        do {
            params = try Self.params(place)
        } catch {
            return HTTPResponse(.badRequest, text: "\(error)\n")
        }
        if target.has("u") {
            params["units"] = .string(Units.imperial.rawValue)
        } else if target.has("m") || target.has("M") {
            params["units"] = .string(Units.metric.rawValue)
        }
        do throws(RPCError) {
            let current = try await methods.call("weather/current", params)
            // Without the forecast or the nowcast, the codes that need them print "?", as `weatherd now` does.
            let forecast = line.needsForecast ? await optional("weather/forecast", params) : nil
            let nowcast = line.needsNowcast ? await optional("weather/nowcast", params) : nil
            let text = line.render(current: current, forecast: forecast, nowcast: nowcast, now: clock.timestamp())
            return HTTPResponse(.ok, text: TerminalText.safe(text) + "\n")
        } catch {
            return HTTPResponse(error.httpStatus, text: error.message + "\n")
        }
    }

    /// `?format=j1`: wttr.in's JSON (`WttrJSON`), from the current weather and the three-hourly forecast in
    /// metric units (it gives both systems whatever the query asks).
    private func json(_ request: HTTPRequest, place: String?) async -> HTTPResponse {
        do throws(RPCError) {
            var params: [String: JSONValue]
            do {
                params = try Self.params(place)
            } catch {
                return HTTPResponse(.badRequest, text: "\(error)\n")
            }
            params["units"] = .string(Units.metric.rawValue)
            let current = try await methods.call("weather/current", params)
            params["type"] = "threeHourly"
            params["days"] = 3
            let forecast = try await methods.call("weather/forecast", params)
            let byCoordinates = params["lat"] != nil
            let query =
                byCoordinates
                ? "Lat \(WttrJSON.decimal(params["lat"], 2)) and Lon \(WttrJSON.decimal(params["lon"], 2))"
                : OneLine.placeName(current["location"] ?? .null)
            let answer = WttrJSON.render(
                current: current, forecast: forecast, query: query, byCoordinates: byCoordinates)
            return APIAnswer.json(answer, for: request)
        } catch {
            return HTTPResponse(error.httpStatus, text: error.message + "\n")
        }
    }

    /// The params naming `place` (nil: the current location, as set, never looked for). Favorites are private: a
    /// named place is looked up as a city, never among them.
    private static func params(_ place: String?) throws(UsageError) -> [String: JSONValue] {
        var params = try PlaceArgument.params(place, favorites: [])
        if place == nil { params["autoLocation"] = .bool(false) }
        return params
    }

    /// The result of a call whose failure only leaves some codes unknown.
    private func optional(_ method: String, _ params: [String: JSONValue]) async -> JSONValue? {
        do {
            return try await methods.call(method, params)
        } catch {
            return nil
        }
    }
}
