import WeatherDomain

/// KDE's FOSS Public Alert Server (alerts.kde.org by default; open source and self-hostable), which relays the
/// CAP feeds of national services worldwide and needs no key. The server says it is in beta.
///
/// Three calls, checked against the server's source (`foss_public_alert_server`: `alertHandler/urls.py` and
/// `views.py`, `sourceFeedHandler/views.py`):
/// - `GET /alert/area?min_lat=&max_lat=&min_lon=&max_lon=` answers a JSON array of alert ids (UUIDs) whose
///   areas meet the box (400 for a box it finds invalid: a bound out of range, or an empty width or height);
/// - `GET /alert/{id}` answers the alert's CAP document, by a permanent redirect (301) to the stored file (404,
///   as text, for an id it does not know); the stored document is the source's, whitespace trimmed, with
///   polygons the server adds from its own data where the source gave only geocodes;
/// - `GET /sources/area_status?country_codes=jp` answers `{"results": [{name, source_is_official,
///   cap_alert_feed_status, authorityCountry, …}]}`, the feeds it relays for those countries.
///
/// weatherd asks for a small box around a place (`boxHalfDegrees`), fetches each document once (cached by id
/// until it ends), and decides itself which warnings cover the place, by their polygons and circles. No I/O
/// here: the caller fetches.
package struct FPASWarningProvider: Sendable {
    /// The server's base URL, without trailing slashes.
    package let baseURL: String

    /// Creates a provider; the base URL may carry a path prefix (a proxy) and a trailing slash.
    package init(baseURL: String = "https://alerts.kde.org") {
        self.baseURL = RequestURL.base(baseURL)
    }

    /// `fpas`, as recorded in events.
    package var name: String { OfficialWarning.Source.fpas.rawValue }

    /// The credit shown with its warnings, which name their own senders.
    package static let attribution = "FOSS Public Alert Server (KDE; in beta), relaying each sender's CAP feed"

    /// Half the side of the box asked about, in degrees (about 2 km): it holds the place's own point whichever
    /// way its cache key (2 decimals) rounded it.
    package static let boxHalfDegrees = 0.02

    /// The most documents read for one place in one answer; the rest are read when next asked.
    package static let maxDocuments = 40

    /// `GET /alert/area` for the box around `(lat, lon)`, kept within the server's bounds (latitude ±90,
    /// longitude ±180: a box is cut at ±180° rather than wrapped, since the server takes no box that wraps).
    package func areaRequest(lat: Double, lon: Double) -> ProviderRequest {
        let half = Self.boxHalfDegrees
        let query = [
            ("min_lat", max(-90, lat - half)), ("max_lat", min(90, lat + half)), ("min_lon", max(-180, lon - half)),
            ("max_lon", min(180, lon + half)),
        ].map { ($0.0, RequestURL.coordinate($0.1)) }
        let url = RequestURL.make(baseURL, "/alert/area", query)
        return ProviderRequest(url: url, auditURL: url)
    }

    /// Reads an `/alert/area` answer: the alert ids, each a UUID (anything else would end up in a URL).
    ///
    /// - Throws: `ProviderError` `bad_upstream_response` for a body that is not an array of UUIDs.
    package func decodeIDs(_ body: [UInt8]) throws(ProviderError) -> [String] {
        try ResponseBody.decode(body, provider: name) { (root) throws(FieldError) in
            guard case .array(let items) = root else { throw FieldError(path: "$", problem: "must be an array of ids") }
            var ids: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let id) = item, Self.isUUID(id) else {
                    throw FieldError(path: "$[\(index)]", problem: "must be an alert id (a UUID)")
                }
                if !ids.contains(id.lowercased()) { ids.append(id.lowercased()) }
            }
            return ids
        }
    }

    /// `GET /alert/{id}`; nil for an id that is not a UUID.
    package func alertRequest(id: String) -> ProviderRequest? {
        guard Self.isUUID(id) else { return nil }
        let url = baseURL + "/alert/" + id.lowercased()
        return ProviderRequest(url: url, auditURL: url)
    }

    /// Reads one alert's CAP document: its message in one version per id (`language`, else English, else the
    /// first), cancels and all-clears kept (what they replace is in other documents).
    package func decodeAlert(_ body: [UInt8], language: String?) throws(ProviderError) -> [OfficialWarning] {
        WarningRules.oneLanguage(try CAPDocument.warnings(body, source: .fpas, provider: name), language: language)
    }

    /// `GET /sources/area_status` for the feeds of `countries` (ISO codes, sent in lower case as the server keeps
    /// them).
    package func feedsRequest(countries: [String]) -> ProviderRequest {
        let query = countries.map { ("country_codes", RequestURL.encode($0.lowercased())) }
        let url = RequestURL.make(baseURL, "/sources/area_status", query)
        return ProviderRequest(url: url, auditURL: url)
    }

    /// Reads an `/sources/area_status` answer: the feeds the server relays for the countries asked.
    package func decodeFeeds(_ body: [UInt8]) throws(ProviderError) -> [WarningsListed.Feed] {
        try ResponseBody.decode(body, provider: name) { (root) throws(FieldError) in
            let top = try FieldReader(root, path: "$")
            var feeds: [WarningsListed.Feed] = []
            for (index, item) in try ResponseBody.array(top, "results").enumerated() {
                let feed = try FieldReader(item, path: "$.results[\(index)]")
                feeds.append(
                    WarningsListed.Feed(
                        name: try feed.string("name"), country: try feed.string("authorityCountry").uppercased(),
                        status: try feed.optionalString("cap_alert_feed_status") ?? "unknown",
                        official: try feed.optionalBool("source_is_official")))
            }
            return feeds
        }
    }

    /// Whether `text` is a UUID in its usual form (`8-4-4-4-12` hexadecimal digits).
    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return false }
        return groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
