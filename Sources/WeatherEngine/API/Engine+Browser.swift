import WeatherDomain

/// The HTTP face's address with a one-time code: what `http/open` answers and `weatherd open` prints.
package struct BrowserLink: Sendable, Equatable {
    /// `http://127.0.0.1:9466/?code=…`.
    package var url: String
    /// How long the code may be traded for a session.
    package var expiresInSeconds: Int64
}

extension Engine {
    /// A link that lets a browser into the HTTP face once (see `BrowserPasses`).
    ///
    /// - Throws: `EngineError.httpNotServed` when the daemon answers no HTTP.
    package func browserLink() throws(EngineError) -> BrowserLink {
        guard let base = httpURL else { throw .httpNotServed }
        let code = browserPasses.issueCode(now: clock.now)
        return BrowserLink(url: base + "?code=" + code, expiresInSeconds: BrowserPasses.codeLifetime.components.seconds)
    }
}
