import WeatherEngine
import WeatherWire

/// Who may ask what of the HTTP face.
///
/// - A request's `Host` must name the loopback (`localhost`, `127.x.x.x`, `[::1]`, with any port) or one of
///   `hosts` (`--http-host`), unless `allowRemote`: a page on another site that rebinds its name to 127.0.0.1 is
///   refused (DNS rebinding).
/// - The token (`Authorization: Bearer`, `HTTPToken`) opens every route. A browser session (the cookie a
///   `weatherd open` code sets, `BrowserPasses`) opens what only reads: `GET` and `HEAD`.
/// - With `allowRemote` every route needs one of them; otherwise `GET /{place}` for a named place and `/:help`
///   need neither, and `/metrics` needs one unless `metricsPublic`.
package struct HTTPAccess: Sendable {
    /// The cookie that carries a browser session.
    package static let cookieName = "weatherd-session"

    package var token: HTTPToken
    /// `--http-allow-remote`.
    package var allowRemote = false
    /// `--metrics-public`.
    package var metricsPublic = false
    /// `--http-host`: names a `Host` may give beside the loopback's, lowercased.
    package var hosts: Set<String> = []

    package init(token: HTTPToken, allowRemote: Bool = false, metricsPublic: Bool = false, hosts: [String] = []) {
        self.token = token
        self.allowRemote = allowRemote
        self.metricsPublic = metricsPublic
        self.hosts = Set(hosts)
    }

    /// Whether `request` may see what is private: it carries the token, or it only reads and carries a session
    /// `passes` started.
    func admits(_ request: HTTPRequest, passes: BrowserPasses) -> Bool {
        if token.admits(authorization: request.headers["Authorization"]) { return true }
        guard request.method == "GET" || request.method == "HEAD",
            let session = Self.cookie(Self.cookieName, in: request.headers["Cookie"])
        else { return false }
        return passes.admits(session: session)
    }

    /// The value of cookie `name` in a `Cookie` header (`a=1; weatherd-session=…`), if it is there.
    static func cookie(_ name: String, in header: String?) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let trimmed = pair.drop { $0 == " " }
            guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { continue }
            return String(trimmed[trimmed.index(after: equals)...])
        }
        return nil
    }

    /// The `Set-Cookie` value that keeps a browser session: sent back only to this listener's host, never to
    /// scripts, never with a request another site starts.
    static func sessionCookie(_ session: String) -> String {
        "\(cookieName)=\(session); Path=/; HttpOnly; SameSite=Strict"
    }

    /// 403 for a `Host` that is neither a loopback name nor one of `hosts` (the name itself is not echoed); nil
    /// when the host is fine or `allowRemote` lets every host in (the token then guards every route).
    func checkHost(_ request: HTTPRequest) -> HTTPResponse? {
        guard !allowRemote, let host = request.headers["Host"] else { return nil }
        var name = Substring(host.lowercased())
        if name.hasPrefix("[") {
            name = name.prefix { $0 != "]" }.dropFirst()
        } else if let colon = name.firstIndex(of: ":") {
            name = name[..<colon]
        }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        let isLoopback =
            name == "localhost" || name == "::1"
            || (octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil })
        guard !isLoopback, !hosts.contains(String(name)) else { return nil }
        return HTTPResponse(
            .forbidden,
            text: "The Host header names neither this machine's loopback nor a name given with --http-host; "
                + "weatherd answers only localhost, 127.0.0.1, [::1] and those (a page elsewhere may have rebound "
                + "its name to this machine).\n")
    }
}
