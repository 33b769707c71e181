/// Where `weatherd serve` answers HTTP (`--http-listen HOST[:PORT]`, or `--metrics-listen`): `GET /metrics`
/// and the HTTP face's routes.
package struct MetricsEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// A numeric IPv4 or IPv6 address (`localhost` is read as `127.0.0.1`).
    package var host: String
    /// The TCP port; 0 lets the system choose one (the daemon logs which).
    package var port: Int
    /// Whether `host` is a loopback address (`127.0.0.0/8`, `::1`).
    package var isLoopback: Bool { host == "::1" || host.hasPrefix("127.") }
    /// Whether `host` is an IPv6 address.
    package var isIPv6: Bool { host.contains(":") }

    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `127.0.0.1:9466`, `[::1]:9466`.
    package var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The port taken when `--http-listen` names only a host.
    package static let defaultPort = 9466

    /// Reads `HOST[:PORT]`: an IPv4 address, `[IPv6]` or `localhost`, then a port from 0 to 65535 (9466 when
    /// left out).
    ///
    /// - Throws: `ConfigurationError` saying what is wrong.
    package static func parse(_ text: String) throws(ConfigurationError) -> MetricsEndpoint {
        do {
            return try endpoint(text)
        } catch {
            throw ConfigurationError("--http-listen \(error.problem)")
        }
    }

    /// Reads `HOST:PORT`, as `parse` does.
    ///
    /// - Throws: `OptionRefusal` saying what is wrong.
    static func endpoint(_ text: String) throws(OptionRefusal) -> MetricsEndpoint {
        let hostOnly = text == "localhost" || text.hasSuffix("]") || !text.contains(":")
        var host = text
        var port = defaultPort
        if !hostOnly {
            guard let colon = text.lastIndex(of: ":"), let given = Int(text[text.index(after: colon)...]),
                (0...65535).contains(given)
            else { throw OptionRefusal("must be HOST:PORT, such as 127.0.0.1:9466") }
            host = String(text[..<colon])
            port = given
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" { host = "127.0.0.1" }
        let ipv4 = host.split(separator: ".", omittingEmptySubsequences: false)
        let isIPv4 = ipv4.count == 4 && ipv4.allSatisfy { UInt8($0) != nil }
        let isIPv6 = host.contains(":") && host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        guard isIPv4 || isIPv6 else {
            throw OptionRefusal("needs a numeric address (127.0.0.1, [::1], 0.0.0.0) or localhost, not \(host)")
        }
        return MetricsEndpoint(host: host, port: port)
    }
}

extension Configuration {
    /// Refuses an `--http-listen` address other hosts can reach unless `--http-allow-remote` asks for it: the
    /// metrics and the API name the places weatherd keeps.
    func checkHTTPEndpoint() throws(ConfigurationError) {
        guard let endpoint = httpListen, !endpoint.isLoopback, !httpAllowRemote else { return }
        throw ConfigurationError(
            "--http-listen \(endpoint) is reachable from other hosts; the metrics and the API name your places, so "
                + "add --http-allow-remote to mean it (every request then needs the token in DIR/http-token), or "
                + "listen on 127.0.0.1")
    }
}
