import WeatherDomain

/// What an answer's own headers say about asking again: not before `expiresAt`, and then conditionally with
/// the exact `Last-Modified` string (MET Norway's terms; RFC 9111 freshness for every provider).
package struct HTTPValidity: Sendable, Equatable {
    /// The answer is fresh until then: `Cache-Control: max-age` (less `Age`) when given, which wins over
    /// `Expires`; nil when the answer says neither. `no-store` and `no-cache`, and an `Expires` that is not a
    /// date, make it stale at once (`receivedAt`).
    package var expiresAt: Timestamp?
    /// `Last-Modified` as sent, never reformatted: `If-Modified-Since` must repeat it byte for byte.
    package var lastModified: String?

    package init(expiresAt: Timestamp?, lastModified: String?) {
        self.expiresAt = expiresAt
        self.lastModified = lastModified
    }

    /// Reads `headers` (names lowercased, as `HTTPResponse` keeps them) of an answer received at `receivedAt`.
    package init(headers: [String: String], receivedAt: Timestamp) {
        lastModified = headers["last-modified"].map(\.trimmingWhitespace).flatMap { $0.isEmpty ? nil : $0 }
        let directives = (headers["cache-control"] ?? "").lowercased().split(separator: ",")
            .map { String($0).trimmingWhitespace }
        if directives.contains("no-store") || directives.contains("no-cache") {
            expiresAt = receivedAt
        } else if let maxAge = directives.first(where: { $0.hasPrefix("max-age=") })
            .flatMap({ Int64($0.dropFirst("max-age=".count)) }), maxAge >= 0
        {
            let age = headers["age"].flatMap { Int64($0.trimmingWhitespace) } ?? 0
            expiresAt = Timestamp(milliseconds: receivedAt.milliseconds + max(0, maxAge - age) * 1000)
        } else if let expires = headers["expires"] {
            expiresAt = Self.date(expires) ?? receivedAt
        } else {
            expiresAt = nil
        }
    }

    /// The headers that ask for the answer again only if it changed: `If-Modified-Since` with the exact
    /// `Last-Modified` string; none without one.
    package var conditionalHeaders: [String: String] {
        lastModified.map { ["If-Modified-Since": $0] } ?? [:]
    }

    /// Whether a request now would come before the answer's own expiry.
    package func isFresh(at now: Timestamp) -> Bool {
        expiresAt.map { now < $0 } ?? false
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// An HTTP-date in any of the three forms a recipient must accept (RFC 9110 §5.6.7): IMF-fixdate
    /// `Sun, 06 Nov 1994 08:49:37 GMT`, RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` and asctime
    /// `Sun Nov  6 08:49:37 1994`; nil for anything else.
    package static func date(_ text: String) -> Timestamp? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map { $0.lowercased() }
        let day: Int64?
        let month: Int?
        let year: Int64?
        let time: String
        switch words.count {
        case 6 where words[5] == "gmt":  // IMF-fixdate
            (day, month, year, time) = (Int64(words[1]), months.firstIndex(of: words[2]), Int64(words[3]), words[4])
        case 4 where words[3] == "gmt":  // RFC 850
            let parts = words[1].split(separator: "-").map(String.init)
            guard parts.count == 3, let short = Int64(parts[2]) else { return nil }
            // A two-digit year: 70–99 are 1970–1999, 00–69 are 2000–2069 (what RFC 9110's "not more than 50
            // years ahead" gives for the years weatherd sees).
            (day, month, year, time) = (
                Int64(parts[0]), months.firstIndex(of: parts[1]), short < 70 ? 2000 + short : 1900 + short, words[2]
            )
        case 5:  // asctime
            (day, month, year, time) = (Int64(words[2]), months.firstIndex(of: words[1]), Int64(words[4]), words[3])
        default:
            return nil
        }
        let clock = time.split(separator: ":").compactMap { Int64($0) }
        guard let day, let month, let year, clock.count == 3, (1...31).contains(day), (0...23).contains(clock[0]),
            (0...59).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        let days = CivilDate.toDays(year: year, month: Int64(month + 1), day: day)
        return Timestamp(milliseconds: ((days * 24 + clock[0]) * 60 + clock[1]) * 60_000 + clock[2] * 1000)
    }
}
