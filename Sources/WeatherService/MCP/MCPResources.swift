import EventLog
import Foundation
import WeatherDomain
import WeatherEngine

/// The resource URIs of the MCP face.
enum MCPResourceURI {
    static let favorites = "weather://favorites"
    static let alerts = "weather://alerts"
    static let warnings = "weather://warnings"
    static let currentTemplate = "weather://current/{place}"
    static let forecastTemplate = "weather://forecast/{place}"
    static let nowcastTemplate = "weather://nowcast/{place}"

    /// What a URI names.
    enum Target: Equatable {
        case favorites, alerts, warnings
        /// `current`, `forecast` or `nowcast` weather at a place (percent-decoded).
        case weather(kind: String, place: String)
    }

    /// Parses a URI weatherd serves; nil for any other.
    static func target(_ uri: String) -> Target? {
        if uri == favorites { return .favorites }
        if uri == alerts { return .alerts }
        if uri == warnings { return .warnings }
        for kind in ["current", "forecast", "nowcast"] where uri.hasPrefix("weather://\(kind)/") {
            let raw = String(uri.dropFirst("weather://\(kind)/".count))
            guard let place = raw.removingPercentEncoding, !place.isEmpty, !place.contains("/") else { return nil }
            return .weather(kind: kind, place: place)
        }
        return nil
    }

    /// `target(_:)`, with a `lat,lon` place checked as every face checks a point.
    ///
    /// - Throws: `FieldError` on `params.uri` for a `lat,lon` that is not a point on the globe.
    static func checkedTarget(_ uri: String) throws(FieldError) -> Target? {
        let target = target(uri)
        if case .weather(_, let place)? = target { _ = try Coordinates(text: place, path: "params.uri") }
        return target
    }

    /// The URI of a place's weather.
    static func weather(_ kind: String, place: String) -> String {
        "weather://\(kind)/" + (place.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? place)
    }
}

extension MCPController {
    /// `resources/list`: the favorites and alerts, and the current weather of each favorite.
    func listResources(_ request: MCPRequest) async -> JSONValue {
        let items = await engine.allFavorites()
        let fetched = await engine.currentFetchedAt(items)
        var resources: [JSONValue] = [
            resource(
                MCPResourceURI.favorites, name: "favorites", title: "Favorite places",
                description: "The saved favorite places, most recent first.", lastModified: nil, request.version),
            resource(
                MCPResourceURI.alerts, name: "alerts", title: "Weather alerts",
                description: "The alerts raised, most recent first.", lastModified: nil, request.version),
            resource(
                MCPResourceURI.warnings, name: "warnings", title: "Official weather warnings",
                description: "The official warnings in force at the current location and every favorite with "
                    + "alerts on, as last fetched (NWS, the DWD through Bright Sky, EUMETNET – MeteoAlarm, the "
                    + "FOSS Public Alert Server).",
                lastModified: nil, request.version),
        ]
        for (favorite, fetchedAt) in zip(items, fetched) {
            resources.append(
                resource(
                    MCPResourceURI.weather("current", place: favorite.id), name: "current-\(favorite.id)",
                    title: "Current weather in \(favorite.name)",
                    description: "The last fetched current weather of the favorite \(favorite.name).",
                    lastModified: fetchedAt, request.version))
        }
        return request.cacheable(["resources": .array(resources)], ttlMs: 0, scope: "private")
    }

    private func resource(
        _ uri: String, name: String, title: String, description: String, lastModified: Timestamp?,
        _ version: MCPVersion
    ) -> JSONValue {
        var object: [String: JSONValue] = [
            "uri": .string(uri), "name": .string(name), "description": .string(description),
            "mimeType": "application/json",
        ]
        if version.hasStructuredContent {
            object["title"] = .string(title)
            if let lastModified { object["annotations"] = ["lastModified": .string(lastModified.description)] }
        }
        return .object(object)
    }

    /// `resources/templates/list`.
    func listResourceTemplates(_ request: MCPRequest) -> JSONValue {
        let templates: [(String, String, String, String)] = [
            (
                MCPResourceURI.currentTemplate, "current", "Current weather",
                "Current weather at a place: a favorite's id or name, a city, or \"lat,lon\"."
            ),
            (
                MCPResourceURI.forecastTemplate, "forecast", "Forecast",
                "Forecast at a place: a favorite's id or name, a city, or \"lat,lon\"."
            ),
            (
                MCPResourceURI.nowcastTemplate, "nowcast", "Precipitation in the next minutes",
                "The next two hours' precipitation at a place, and what it says (\"rain starting in 10 min\"): a "
                    + "favorite's id or name, a city, or \"lat,lon\". Subscribed, weatherd refreshes it at its "
                    + "source's cadence and announces each change."
            ),
        ]
        let list: [JSONValue] = templates.map { uri, name, title, description in
            var object: [String: JSONValue] = [
                "uriTemplate": .string(uri), "name": .string(name), "description": .string(description),
                "mimeType": "application/json",
            ]
            if request.version.hasStructuredContent { object["title"] = .string(title) }
            return .object(object)
        }
        return request.cacheable(["resourceTemplates": .array(list)], ttlMs: 3_600_000, scope: "public")
    }

    /// `resources/read`.
    func readResource(_ uri: String, _ request: MCPRequest, _ call: MethodCall) async throws -> JSONValue {
        guard let target = try MCPResourceURI.checkedTarget(uri) else {
            throw MCPErrors.resourceNotFound(uri, version: request.version)
        }
        let value: JSONValue
        switch target {
        case .favorites:
            value = .object(["favorites": .array(await engine.allFavorites().map(\.json))])
        case .alerts:
            value = .object(["alerts": .array(await engine.allAlerts().json)])
        case .warnings:
            value = await engine.warningsInForce().json
        case .weather(let kind, let place):
            let query = try await placeQuery(place)
            let origin = Origin(cause: call.cause)
            switch kind {
            case "current": value = try await engine.current(query, units: nil, maxAgeMs: nil, origin: origin)().json
            case "nowcast": value = try await engine.nowcast(query, units: nil, origin: origin)().json
            default:
                value = try await engine.forecast(
                    query, units: nil, maxAgeMs: nil, days: nil, detail: .full, origin: origin)().json
            }
        }
        let contents: JSONValue = [
            "uri": .string(uri), "mimeType": "application/json", "text": .string(value.jsonString),
        ]
        return request.cacheable(["contents": [contents]], ttlMs: 0, scope: "private")
    }

    /// The place a `{place}` names: `lat,lon`, a favorite's id or name, else a city.
    ///
    /// - Throws: `FieldError` on `params.uri` for a `lat,lon` that is not a point on the globe.
    func placeQuery(_ place: String) async throws(FieldError) -> PlaceQuery {
        if let point = try Coordinates(text: place, path: "params.uri") { return .coordinates(point) }
        if let favorite = await engine.favorite(idOrName: place) { return .favorite(favorite.id) }
        return .city(place)
    }

    /// The place key a weather URI's fetches are cached under; a city is geocoded (cached, audited).
    ///
    /// - Throws: `FieldError` for a `lat,lon` that is not a point on the globe.
    func placeKey(of uri: String, cause: String) async throws(FieldError) -> String? {
        guard case .weather(_, let place)? = MCPResourceURI.target(uri) else { return nil }
        return await engine.placeKey(of: try placeQuery(place), cause: cause)
    }

    /// Follows committed events and announces the subscribed resources they change, each once, until
    /// cancelled.
    func followResourceChanges(_ session: MCPSession) async {
        do {
            try await engine.follower.follow(after: engine.follower.lastSeq) { envelope in
                guard let change = resourceChange(envelope) else { return }
                for target in session.targets(of: change) {
                    var params: [String: JSONValue] = ["uri": .string(target.uri)]
                    if let id = target.subscription { params["_meta"] = [MCPMeta.subscriptionId: id] }
                    pushes.notify("notifications/resources/updated", .object(params))
                }
            }
        } catch {
            engine.logger.error("resource updates stopped following the log: \(error)")
        }
    }

    private func resourceChange(_ envelope: EventEnvelope) -> ResourceChange? {
        if envelope.type.hasPrefix("favorite.") { return .favorites }
        if envelope.type == "alert.raised" { return .alerts }
        if envelope.type == "warnings.fetched" { return .warnings }
        guard envelope.type == "weather.fetched" || envelope.type == "nowcast.fetched" else { return nil }
        do {
            switch try envelope.decodedEvent() {
            case .event(.weatherFetched(let fetched)): return .weather(kind: fetched.kind.rawValue, key: fetched.key)
            case .event(.nowcastFetched(let fetched)): return .weather(kind: "nowcast", key: fetched.key)
            default: return nil
            }
        } catch {
            engine.logger.error("resource updates cannot read seq \(envelope.seq): \(error)")
            return nil
        }
    }
}
