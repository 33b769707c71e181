import WeatherDomain
import WeatherEngine
import WeatherService
import WeatherWire

/// The dashboard at `/`: one self-contained page (no fonts, scripts or styles from elsewhere; it works offline)
/// for the current location and the favorites: now, the next hour, the warnings in force, the days ahead, air
/// quality, and the chart of the first place. Everything is rendered here, so the page reads whole without
/// JavaScript; its one small script follows `/v1/events` and, when an event that changes what it shows
/// arrives, fetches `/:dashboard` (the same places, rendered again) and puts it in place, without a reload.
struct Dashboard: Sendable {
    let methods: HTTPMethods
    /// Where the log ends, for the page's script to follow it from.
    let log: any LogFacet

    static let contentType = "text/html; charset=utf-8"
    /// The page's icon, inline (a browser asks for `/favicon.ico` otherwise).
    static let icon =
        "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'>"
        + "<circle cx='8' cy='8' r='5' fill='%23f59e0b'/></svg>"
    /// The most favorites shown.
    static let maxFavorites = 12
    /// The events after which the page is rendered again.
    static let liveTypes = [
        "weather.fetched", "favorite.added", "favorite.removed", "favorite.updated", "location.changed",
        "location.cleared", "settings.changed", "warnings.fetched", "nowcast.changed", "air_quality.fetched",
    ]

    /// The whole page.
    func page() async -> HTTPResponse {
        let seq = log.lastSeq
        let places = await placesHTML()
        let nonce = Secret.randomHex(bytes: 16)
        var html = HTML()
        html.markup("<!doctype html>\n")
        html.open("html", [("lang", "en")])
        html.open("head")
        html.open("meta", [("charset", "utf-8")])
        html.open("meta", [("name", "viewport"), ("content", "width=device-width, initial-scale=1")])
        html.open("meta", [("name", "color-scheme"), ("content", "light dark")])
        html.element("title", text: "weatherd")
        html.open("link", [("rel", "icon"), ("href", Self.icon)])
        html.open("style", [("nonce", nonce)])
        html.markup(Self.style)
        html.close("style")
        html.close("head")
        html.open("body")
        html.open("header")
        html.element("h1", text: "weatherd")
        html.element("p", [("id", "live"), ("role", "status")], text: "As of loading; live updates need JavaScript.")
        html.close("header")
        html.open(
            "main",
            [("id", "places"), ("data-seq", String(seq)), ("data-types", Self.liveTypes.joined(separator: ","))])
        html.markup(places)
        html.close("main")
        html.open("footer")
        html.text("Served by your own weatherd. Weather data by its providers, named in each answer.")
        html.close("footer")
        html.open("script", [("nonce", nonce)])
        html.markup(Self.script)
        html.close("script")
        html.close("body")
        html.close("html")
        var response = HTTPResponse(.ok, text: html.text + "\n", contentType: Self.contentType)
        Self.secure(&response, nonce: nonce)
        return response
    }

    /// The places alone, for the page's script to put in place.
    func fragment() async -> HTTPResponse {
        var response = HTTPResponse(.ok, text: await placesHTML(), contentType: Self.contentType)
        Self.secure(&response, nonce: nil)
        return response
    }

    /// Every answer the page shows is private and changes: never cached, never framed, never sniffed; scripts and
    /// styles only the page's own (by a nonce made for each page), connections only to this listener.
    private static func secure(_ response: inout HTTPResponse, nonce: String?) {
        let own = nonce.map { " 'nonce-\($0)'" } ?? ""
        response.headers.add(
            "Content-Security-Policy",
            "default-src 'none'; script-src\(own.isEmpty ? " 'none'" : own); style-src\(own.isEmpty ? " 'none'" : own); "
                + "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        )
        response.headers.add("Cache-Control", "no-store")
        response.headers.add("X-Content-Type-Options", "nosniff")
        response.headers.add("Referrer-Policy", "no-referrer")
    }

    /// The current location's section, then each favorite's (the first with the chart), or a sentence saying
    /// there is nothing to show yet.
    private func placesHTML() async -> String {
        var wanted: [(params: [String: JSONValue], name: String, role: String)] = []
        if let location = try? await methods.call("location/get", ["autoLocation": false]) {
            wanted.append((["autoLocation": false], location["name"]?.stringValue ?? "here", "current location"))
        }
        let favorites = try? await methods.call("favorites/list", ["limit": .int(Int64(Self.maxFavorites))])
        for favorite in favorites?["favorites"]?.arrayValue ?? [] {
            guard let id = favorite["id"]?.stringValue else { continue }
            wanted.append((["favorite": .string(id)], favorite["name"]?.stringValue ?? id, "favorite"))
        }
        var html = HTML()
        guard !wanted.isEmpty else {
            html.element(
                "p", [("class", "empty")],
                text: "No place yet. Set where you are (weatherd location set Berlin) or add a favorite "
                    + "(weatherd favorites add Paris); this page shows them as they come.")
            return html.text
        }
        let places = await withTaskGroup(of: (Int, DashboardPlace).self) { group in
            for (index, place) in wanted.enumerated() {
                group.addTask {
                    let gathered = await DashboardPlace.gather(
                        methods, params: place.params, name: place.name, role: place.role, chart: index == 0)
                    return (index, gathered)
                }
            }
            var gathered: [(Int, DashboardPlace)] = []
            for await place in group { gathered.append(place) }
            return gathered.sorted { $0.0 < $1.0 }.map(\.1)
        }
        for (index, place) in places.enumerated() { place.render(into: &html, index: index) }
        return html.text
    }
}
