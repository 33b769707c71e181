import Providers
import Testing
import WeatherDomain

/// A time from RFC 3339 text, which the test must spell correctly.
private func at(_ text: String) throws -> Timestamp {
    try #require(Timestamp(rfc3339: text), "bad test time \(text)")
}

/// A JSON object's text from raw member texts: `base`, with `changes` replacing or adding members.
private func object(_ base: [(String, String)], _ changes: [String: String] = [:]) -> String {
    var members = base.map { key, value in (key, changes[key] ?? value) }
    for (key, value) in changes.sorted(by: { $0.key < $1.key }) where !base.contains(where: { $0.0 == key }) {
        members.append((key, value))
    }
    return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
}

@Suite("NWS warnings")
struct NWSWarningsTests {
    let nws = NWSWarningProvider(userAgent: NWSWarningProvider.userAgent(contact: "ops@example.com"))
    static let heatID = "urn:oid:2.49.0.1.840.0.505a7220d91b00eb1d75a3fb4f339f825496a522.004.1"
    static let airQualityID = "urn:oid:2.49.0.1.840.0.32b8fe5b1e8094248fdbb7a32619581ec4e1df14.001.1"

    @Test("the request: point with at most 4 decimals, a User-Agent naming weatherd and the contact, no key")
    func request() {
        let request = nws.alertsRequest(lat: 33.44838, lon: -112.07404)
        #expect(request.url == "https://api.weather.gov/alerts/active?point=33.4484,-112.074")
        #expect(request.auditURL == request.url)
        #expect(request.headers["User-Agent"] == "weatherd/1.0 (ops@example.com)")
        #expect(request.headers["Accept"] == "application/geo+json")
        let proxied = NWSWarningProvider(userAgent: "weatherd/0.1.0", baseURL: "http://127.0.0.1:9000/nws/")
        #expect(
            proxied.alertsRequest(lat: 40.7128, lon: -74.006).url
                == "http://127.0.0.1:9000/nws/alerts/active?point=40.7128,-74.006")
        #expect(proxied.alertsRequest(lat: 0, lon: 0).headers["User-Agent"] == "weatherd/0.1.0")
    }

    @Test(
        "the User-Agent: version, contact, control characters never end the header line",
        arguments: [
            ("ops@example.com", "1.0", "weatherd/1.0 (ops@example.com)"),
            ("https://example.org/weatherd", "0.1.0", "weatherd/0.1.0 (https://example.org/weatherd)"),
            ("a\r\nX-Injected: 1", "1.0", "weatherd/1.0 (a X-Injected: 1)"), ("  \n ", "1.0", "weatherd/1.0"),
        ])
    func userAgent(contact: String, version: String, expected: String) {
        let agent = NWSWarningProvider.userAgent(contact: contact, version: version)
        #expect(agent == expected)
        #expect(!agent.contains("\r") && !agent.contains("\n"))
    }

    @Test("Phoenix: an Update with references, expires before onset, ends null, instruction null, Unknowns")
    func phoenix() throws {
        let body = try Fixture.bytes("nws-alerts-point-phoenix-az")
        let warnings = try nws.decodeAlerts(body)
        #expect(warnings.map(\.id) == [Self.heatID, Self.airQualityID])
        let heat = warnings[0]
        #expect(heat.source == .nws)
        #expect(heat.sender == "NWS Phoenix AZ")
        #expect(heat.event == "Excessive Heat Warning")
        #expect(heat.severity == .severe)
        #expect(heat.certainty == "Likely")
        #expect(heat.urgency == "Expected")
        #expect(heat.messageType == .update)
        #expect(heat.replaces == ["urn:oid:2.49.0.1.840.0.2852349b8f25500975c692db29cb2f047ff20a7c.004.2"])
        #expect(heat.sent == (try at("2024-07-18T19:47:00Z")))
        #expect(heat.onset == (try at("2024-07-19T17:00:00Z")))
        #expect(heat.expires == (try at("2024-07-19T10:00:00Z")))
        #expect(try #require(heat.onset) > (try #require(heat.expires)))
        #expect(heat.ends == (try at("2024-07-21T03:00:00Z")))
        #expect(heat.activeUntil == heat.ends)
        #expect(heat.language == "en-US")
        #expect(
            heat.headline
                == "Excessive Heat Warning issued July 18 at 12:47PM MST until July 20 at 8:00PM MST by NWS Phoenix AZ")
        #expect(heat.areaNames.count == 9)
        #expect(heat.areaNames.first == "Northwest Valley")
        #expect(heat.areaNames.last == "Southeast Valley/Queen Creek")
        #expect(heat.areaIds.count == 9)
        #expect(heat.areaIds.first == "AZZ537")
        #expect(heat.areaIds.last == "AZZ551")
        // The texts are the sender's, byte for byte, line breaks included.
        let properties = try #require(JSONValue.parse(body)["features"]?.arrayValue?.first?["properties"])
        #expect(heat.description == properties["description"]?.stringValue)
        #expect(heat.instruction == properties["instruction"]?.stringValue)
        #expect(
            heat.description?.hasPrefix("* WHAT...Dangerously hot conditions. Afternoon temperatures 112 to\n116")
                == true)

        let air = warnings[1]
        #expect(air.event == "Air Quality Alert")
        #expect(air.severity == .unknown)
        #expect(air.certainty == "Unknown")
        #expect(air.urgency == "Unknown")
        #expect(air.messageType == .alert)
        #expect(air.replaces.isEmpty)
        #expect(air.ends == nil)
        #expect(air.instruction == nil)
        #expect(air.onset == (try at("2024-07-18T15:13:00Z")))
        #expect(air.expires == (try at("2024-07-20T04:00:00Z")))
        #expect(air.activeUntil == air.expires)
        #expect(air.areaNames == ["Maricopa, AZ"])
        #expect(air.areaIds == ["AZC013"])
        #expect(air.description?.hasPrefix("AQAPSR\n\nThe Arizona Department of Environmental Quality") == true)
    }

    @Test("nothing active: features [] and @context as an object")
    func empty() throws {
        #expect(try nws.decodeAlerts(try Fixture.bytes("nws-alerts-point-new-york-empty")).isEmpty)
    }

    @Test(
        "Phoenix over time: the heat warning lasts until ends although it expires before its onset",
        arguments: [
            ("2024-07-19T12:00:00Z", [heatID, airQualityID]), ("2024-07-20T05:00:00Z", [heatID]),
            ("2024-07-21T02:59:59Z", [heatID]), ("2024-07-21T03:00:00Z", []),
        ])
    func phoenixOverTime(now: String, shown: [String]) throws {
        let warnings = try nws.decodeAlerts(try Fixture.bytes("nws-alerts-point-phoenix-az"))
        #expect(WarningRules.active(warnings, now: try at(now)).map(\.id) == shown)
    }

    static let validProperties: [(String, String)] = [
        ("id", #""x""#), ("sender", #""w-nws.webmaster@noaa.gov""#), ("event", #""Heat Advisory""#),
        ("severity", #""Moderate""#), ("certainty", #""Likely""#), ("urgency", #""Expected""#),
        ("sent", #""2024-07-18T12:47:00-07:00""#), ("expires", #""2024-07-19T03:00:00-07:00""#),
        ("messageType", #""Alert""#), ("status", #""Actual""#),
    ]

    /// A body of one feature whose properties are the valid set with `changes`.
    static func feature(_ changes: [String: String] = [:]) -> String {
        #"{"features":[{"properties":"# + object(validProperties, changes) + "}]}"
    }

    @Test(
        "unreadable bodies are bad upstream responses naming the member",
        arguments: [
            ("<html>Service Unavailable</html>", "not JSON"), ("{}", "$.features is required"),
            (#"{"features":{}}"#, "$.features must be an array"),
            (#"{"features":[{"id":"x"}]}"#, "$.features[0].properties must be an object"),
            (feature(["id": "7"]), "$.features[0].properties.id must be a string"),
            (feature(["expires": "null"]), "$.features[0].properties.expires is required"),
            (feature(["event": "null"]), "$.features[0].properties.event is required"),
            (feature(["onset": #""tomorrow""#]), "$.features[0].properties.onset must be a time with an offset"),
            (
                feature(["messageType": #""Frobnicate""#]),
                "$.features[0].properties.messageType must be Alert, Update, Cancel"
            ),
            (
                feature(["references": #"[{"sender":"x"}]"#]),
                "$.features[0].properties.references[0].identifier is required"
            ),
            (feature(["geocode": #"{"UGC":"AZZ537"}"#]), "$.features[0].properties.geocode.UGC must be an array"),
        ])
    func badBodies(body: String, detail: String) throws {
        let error = try #require(
            failure { () throws(ProviderError) in _ = try nws.decodeAlerts(Array(body.utf8)) })
        #expect(error.kind == .badUpstreamResponse)
        #expect(error.kind.rawValue == "bad_upstream_response")
        #expect(error.message.hasPrefix("nws sent a response weatherd cannot read ("))
        #expect(error.message.contains(detail), "\(error.message)")
    }

    @Test("the valid property set the bad bodies start from decodes; test messages and Acks are left out")
    func validBaseline() throws {
        let warnings = try nws.decodeAlerts(Array(Self.feature().utf8))
        #expect(warnings.map(\.sender) == ["w-nws.webmaster@noaa.gov"])
        #expect(warnings.map(\.severity) == [.moderate])
        #expect(warnings.map(\.onset) == [nil])
        #expect(try nws.decodeAlerts(Array(Self.feature(["status": #""Test""#]).utf8)).isEmpty)
        #expect(try nws.decodeAlerts(Array(Self.feature(["messageType": #""Ack""#]).utf8)).isEmpty)
    }
}

@Suite("MeteoAlarm warnings")
struct MeteoAlarmWarningsTests {
    let meteoalarm = MeteoAlarmWarningProvider()

    @Test("the feed request by country code; no request for a country MeteoAlarm does not serve")
    func request() throws {
        let bosnia = try #require(meteoalarm.feedRequest(country: "ba"))
        #expect(bosnia.url == "https://feeds.meteoalarm.org/api/v1/warnings/feeds-bosnia-herzegovina")
        #expect(bosnia.auditURL == bosnia.url)
        #expect(bosnia.headers.isEmpty)
        let proxied = MeteoAlarmWarningProvider(baseURL: "http://127.0.0.1:9001/ma/")
        #expect(
            proxied.feedRequest(country: "GB")?.url == "http://127.0.0.1:9001/ma/api/v1/warnings/feeds-united-kingdom")
        #expect(
            meteoalarm.feedRequest(country: "MK")?.url
                == "https://feeds.meteoalarm.org/api/v1/warnings/feeds-republic-of-north-macedonia")
        #expect(meteoalarm.feedRequest(country: "US") == nil)
        #expect(meteoalarm.feedRequest(country: "JP") == nil)
    }

    @Test(
        "the country table",
        arguments: [
            ("DE", "germany"), ("BA", "bosnia-herzegovina"), ("GB", "united-kingdom"),
            ("CZ", "czechia"), ("ch", "switzerland"),
        ])
    func feeds(country: String, feed: String) {
        #expect(MeteoAlarmFeeds.feed(country: country) == feed)
    }

    @Test("the Bosnia and Herzegovina feed: one warning per language, EMMA_ID areas, texts as sent")
    func bosnia() throws {
        let warnings = try meteoalarm.decodeFeed(try Fixture.bytes("meteoalarm-feed-bosnia-herzegovina"))
        #expect(warnings.count == 44)
        #expect(warnings.filter { $0.language == "en" }.count == 22)
        #expect(warnings.filter { $0.language == "bs" }.count == 22)
        let first = warnings[0]
        #expect(first.id == "2.49.0.0.70.1.BA.240105083949.65615156")
        #expect(first.source == .meteoalarm)
        #expect(first.sender == "Republic Hydrometeorological Service of the Republic of Srpska")
        #expect(first.event == "Snow-ice Yellow Warning")
        #expect(first.severity == .moderate)
        #expect(first.certainty == "Likely")
        #expect(first.urgency == "Future")
        #expect(first.sent == (try at("2024-01-05T07:39:49Z")))
        #expect(first.onset == (try at("2024-01-07T17:00:00Z")))
        #expect(first.expires == (try at("2024-01-07T22:59:59Z")))
        #expect(first.ends == nil)
        #expect(first.headline == "Snow-ice Yellow Warning for Bosnia and Herzegovina - region Banja Luka")
        #expect(first.description == "Snow depth between 2 and 5 cm")
        #expect(first.instruction?.hasPrefix("Be aware of snow and/or ice on roads and sidewalks.") == true)
        #expect(first.language == "en")
        #expect(first.areaNames == ["Banja Luka"])
        #expect(first.areaIds == ["BA003"])
        #expect(first.messageType == .alert)
        #expect(first.replaces.isEmpty)
        let bosnian = warnings[1]
        #expect(bosnian.id == first.id)
        #expect(bosnian.language == "bs")
        #expect(bosnian.sender == "Republički hidrometeorološki zavod Republike Srpske")
        #expect(bosnian.event == "Snijeg-led žuto Upozorenje")
        #expect(bosnian.description == "VIsina snežnog pokrivača između 2-5 cm")
    }

    @Test("the feed keeps expired warnings; the rules show what is active, one language each")
    func bosniaActive() throws {
        let warnings = try meteoalarm.decodeFeed(try Fixture.bytes("meteoalarm-feed-bosnia-herzegovina"))
        let now = try at("2024-01-08T12:00:00+01:00")
        let english = WarningRules.active(warnings, now: now)
        #expect(english.count == 15)
        #expect(english.allSatisfy { $0.language == "en" && $0.inForce(at: now) })
        #expect(english.first?.id == "2.49.0.0.70.0.BA.240106080929.59753519")
        #expect(english.last?.id == "2.49.0.0.70.0.BA.240107075519.75445725")
        let bosnian = WarningRules.active(warnings, now: now, language: "bs")
        #expect(bosnian.map(\.id) == english.map(\.id))
        #expect(bosnian.allSatisfy { $0.language == "bs" })
        #expect(WarningRules.active(warnings, now: try at("2024-01-10T10:01:00+01:00")).isEmpty)
    }

    static let updateID = "2.49.0.0.70.0.BA.240106120000.10000002"
    static let eastSarajevoID = "2.49.0.0.70.1.BA.240106140000.10000006"

    @Test("a feed with an update, a cancellation and an expiry: the update alone, never the Cancel or test")
    func updatesCancelsExpiry() throws {
        let warnings = try meteoalarm.decodeFeed(try Fixture.bytes("meteoalarm-feed-updates"))
        #expect(warnings.count == 8)
        #expect(!warnings.contains { $0.event == "Test Warning" })
        let original = try #require(warnings.first { $0.id == "2.49.0.0.70.0.BA.240106080000.10000001" })
        let update = try #require(warnings.first { $0.id == Self.updateID && $0.language == "en" })
        #expect(update.messageType == .update)
        #expect(update.replaces == [original.id])
        #expect(update.severity > original.severity)
        let cancel = try #require(warnings.first { $0.messageType == .cancel })
        #expect(cancel.replaces == ["2.49.0.0.70.0.BA.240106080000.10000003"])

        let now = try at("2024-01-07T12:00:00+01:00")
        let shown = WarningRules.active(warnings, now: now)
        #expect(shown.map(\.id) == [Self.updateID, Self.eastSarajevoID])
        #expect(shown.map(\.language) == ["en", "bs"])
        #expect(shown.first?.event == "Wind Orange Warning")
        #expect(shown.first?.instruction == "Avoid travel.")
        #expect(
            WarningRules.active(warnings, now: now, language: "bs").map(\.event) == [
                "Vjetar narančasto Upozorenje", "Snijeg-led žuto Upozorenje",
            ])
        // Before the bihac alert expired it was shown too.
        #expect(
            WarningRules.active(warnings, now: try at("2024-01-06T09:00:00+01:00")).map(\.event) == [
                "Wind Orange Warning", "Low-temperature Yellow Warning", "Snijeg-led žuto Upozorenje",
            ])
    }

    static let bosniaNow = "2024-01-08T12:00:00+01:00"

    @Test(
        "area matching: exact words without case or diacritics; a neighbour or a part of a name never matches",
        arguments: [
            (
                Place(name: "Banja Luka", country: "BA", state: "Republika Srpska", lat: 44.77, lon: 17.19),
                [
                    "2.49.0.0.70.1.BA.240106124119.24618961"
                ]
            ),
            (
                Place(
                    name: "Bihać", country: "BA", state: "Federation of Bosnia and Herzegovina", lat: 44.82, lon: 15.87),
                [
                    "2.49.0.0.70.0.BA.240106080929.59059374", "2.49.0.0.70.0.BA.240106081136.74729187",
                    "2.49.0.0.70.0.BA.240107075519.64518913",
                ]
            ),
            (
                Place(name: "VIŠEGRAD", country: "BA", state: nil, lat: 43.78, lon: 19.29),
                [
                    "2.49.0.0.70.1.BA.240106124119.89437682"
                ]
            ),
            (Place(name: "Gradiška", country: "BA", state: "Republika Srpska", lat: 45.14, lon: 17.25), []),
            (Place(name: "Istočno Sarajevo", country: "BA", state: "Republika Srpska", lat: 43.82, lon: 18.36), []),
            (Place(name: nil, country: "BA", state: nil, lat: 43.86, lon: 18.41), []),
        ])
    func areaMatching(place: Place, ids: [String]) throws {
        let warnings = try meteoalarm.decodeFeed(try Fixture.bytes("meteoalarm-feed-bosnia-herzegovina"))
        let active = WarningRules.active(warnings, now: try at(Self.bosniaNow))
        #expect(MeteoAlarmAreas.warnings(active, for: place).map(\.id) == ids)
    }

    @Test("area matching tells Sarajevo from Istočno Sarajevo both ways, and reads the region too")
    func areaMatchingNeighbours() throws {
        let warnings = try meteoalarm.decodeFeed(try Fixture.bytes("meteoalarm-feed-updates"))
        let active = WarningRules.active(warnings, now: try at("2024-01-07T12:00:00+01:00"))
        let sarajevo = Place(name: "Sarajevo", country: "BA", state: "Federation of B&H", lat: 43.85, lon: 18.39)
        let east = Place(name: "Istocno Sarajevo", country: "BA", state: nil, lat: 43.82, lon: 18.36)
        let pale = Place(name: "Pale", country: "BA", state: "Istočno sarajevo", lat: 43.82, lon: 18.57)
        #expect(MeteoAlarmAreas.warnings(active, for: sarajevo).map(\.id) == [Self.updateID])
        #expect(MeteoAlarmAreas.warnings(active, for: east).map(\.id) == [Self.eastSarajevoID])
        #expect(MeteoAlarmAreas.warnings(active, for: pale).map(\.id) == [Self.eastSarajevoID])
    }

    @Test(
        "area names: the whole word sequence, folded",
        arguments: [
            ("Banja Luka", "banja-luka", true), ("Köln", "Koln", true), ("Đakovo", "Dakovo", true),
            ("Łódź", "LODZ", true), ("Sarajevo Canton", "Sarajevo", false), ("Kreis Ahrweiler", "Ahrweiler", false),
            ("Stadt München", "Landkreis München", false), ("Luka", "Banja Luka", false),
        ])
    func areaNames(area: String, place: String, matches: Bool) {
        let byName = Place(name: place, country: nil, state: nil, lat: 0, lon: 0)
        let byRegion = Place(name: nil, country: nil, state: place, lat: 0, lon: 0)
        #expect(MeteoAlarmAreas.matches(byName, areaName: area) == matches)
        #expect(MeteoAlarmAreas.matches(byRegion, areaName: area) == matches)
    }

    static let validAlert: [(String, String)] = [
        ("identifier", #""a1""#), ("sender", #""s@example.org""#), ("sent", #""2024-01-06T08:00:00+01:00""#),
        ("status", #""Actual""#), ("msgType", #""Alert""#),
    ]
    static let validInfo = """
        {"language":"en","event":"Wind","severity":"Moderate","certainty":"Likely","urgency":"Future",\
        "expires":"2024-01-08T23:59:59+01:00","area":[{"areaDesc":"Sarajevo"}]}
        """

    /// A feed of one alert: the valid members with `changes`, and the valid info unless `changes` has one.
    static func feed(_ changes: [String: String] = [:]) -> String {
        var changes = changes
        if changes["info"] == nil { changes["info"] = "[\(validInfo)]" }
        return #"{"warnings":[{"alert":"# + object(validAlert, changes) + "}]}"
    }

    @Test(
        "unreadable feeds are bad upstream responses naming the member",
        arguments: [
            ("<html>", "not JSON"), ("[]", "$ must be an object"), ("{}", "$.warnings is required"),
            (#"{"warnings":[{"uuid":"u"}]}"#, "$.warnings[0].alert must be an object"),
            (feed(["info": "null"]), "$.warnings[0].alert.info is required"),
            (
                feed(["references": #""garbage""#]),
                "$.warnings[0].alert.references must be CAP references such as sender,identifier,sent"
            ),
            (feed(["sent": #""2024-01-06 08:00""#]), "$.warnings[0].alert.sent must be a time with an offset"),
            (feed(["identifier": "null"]), "$.warnings[0].alert.identifier is required"),
            (feed(["info": #"[{"language":"en"}]"#]), "$.warnings[0].alert.info[0].event is required"),
            (
                feed(["info": "[\(validInfo),{\"event\":\"x\",\"area\":[{}]}]"]),
                "$.warnings[0].alert.info[1].area[0].areaDesc is required"
            ),
        ])
    func badFeeds(body: String, detail: String) throws {
        let error = try #require(
            failure { () throws(ProviderError) in _ = try meteoalarm.decodeFeed(Array(body.utf8)) })
        #expect(error.kind == .badUpstreamResponse)
        #expect(error.message.hasPrefix("meteoalarm sent a response weatherd cannot read ("))
        #expect(error.message.contains(detail), "\(error.message)")
    }

    @Test("the valid alert the bad feeds start from decodes, with CAP references read by identifier")
    func validBaseline() throws {
        let warnings = try meteoalarm.decodeFeed(Array(Self.feed().utf8))
        #expect(warnings.map(\.areaNames) == [["Sarajevo"]])
        #expect(warnings.map(\.sender) == ["s@example.org"])
        let update = Self.feed([
            "msgType": #""Update""#,
            "references": #""s@example.org,a0,2024-01-05T08:00:00+01:00 s@example.org,b0,2024-01-05T09:00:00+01:00""#,
        ])
        let replaced = try meteoalarm.decodeFeed(Array(update.utf8))
        #expect(replaced.map(\.replaces) == [["a0", "b0"]])
        #expect(replaced.map(\.messageType) == [.update])
        #expect(try meteoalarm.decodeFeed(Array(Self.feed(["status": #""Exercise""#]).utf8)).isEmpty)
    }
}
