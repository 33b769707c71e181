import WeatherEngine
import WeatherService
import WeatherWire

/// What answers `GET /` and `GET /{place}` on the HTTP face: the dashboard for a browser (a request that accepts
/// `text/html`), wttr.in's answers for the rest (`curl`, scripts, status bars), as wttr.in itself does.
package struct WebPages: Sendable {
    let dashboard: Dashboard
    let wttr: WttrRoute

    package init(engine: Engine) {
        dashboard = Dashboard(methods: HTTPMethods(engine: engine), log: engine)
        wttr = WttrRoute(engine: engine)
    }

    package func answer(_ request: HTTPRequest, _ target: HTTPTarget, authorized: Bool) async -> HTTPResponse {
        switch target.segments {
        case ["favicon.ico"], ["robots.txt"]:
            // What browsers and crawlers ask of every site, never a place to look up.
            return HTTPFace.notFound()
        case [":dashboard"]:
            guard authorized else { return HTTPFace.unauthorized() }
            return await dashboard.fragment()
        case [] where Self.acceptsHTML(request):
            var response = authorized ? await dashboard.page() : Self.signIn()
            response.headers.add("Vary", "Accept")
            return response
        case []:
            var response = await wttr.answer(request, target, authorized: authorized)
            response.headers.add("Vary", "Accept")
            return response
        default:
            return await wttr.answer(request, target, authorized: authorized)
        }
    }

    /// Whether the client reads HTML (a browser's `Accept: text/html,…`; `curl`'s `*/*` is not).
    static func acceptsHTML(_ request: HTTPRequest) -> Bool {
        request.headers.values("Accept").contains { $0.lowercased().contains("text/html") }
    }

    /// 401 for a browser without a session: how to get one.
    static func signIn() -> HTTPResponse {
        var html = HTML()
        html.markup("<!doctype html>\n")
        html.open("html", [("lang", "en")])
        html.open("head")
        html.open("meta", [("charset", "utf-8")])
        html.element("title", text: "weatherd: open it from your terminal")
        html.close("head")
        html.open("body")
        html.element("h1", text: "This page shows your places, so it asks who you are")
        html.open("p")
        html.text("In a terminal on this machine, run ")
        html.element("code", text: "weatherd open")
        html.text(" and open the link it prints (it works once, for 2 minutes). Scripts send the token instead: ")
        html.element("code", text: "Authorization: Bearer $(weatherd http-token)")
        html.text(".")
        html.close("p")
        html.close("body")
        html.close("html")
        var response = HTTPResponse(.unauthorized, text: html.text + "\n", contentType: Dashboard.contentType)
        response.headers.add("WWW-Authenticate", "Bearer")
        response.headers.add("Cache-Control", "no-store")
        return response
    }
}
