import Providers
import Testing
import WeatherDomain

@Suite("Bright Sky: the DWD's warnings by municipality")
struct BrightSkyTests {
    let brightSky = BrightSkyWarningProvider()

    @Test("the request: /alerts with lat and lon at 4 decimals, a 404 read as an answer; a proxy's prefix kept")
    func request() {
        let request = brightSky.alertsRequest(lat: 49.63227, lon: 12.056186)
        #expect(request.url == "https://api.brightsky.dev/alerts?lat=49.6323&lon=12.0562")
        #expect(request.auditURL == request.url)
        #expect(request.notFoundIsAnswer)
        #expect(
            BrightSkyWarningProvider(baseURL: "http://127.0.0.1:9/bs/").alertsRequest(lat: 52.52, lon: 13.41).url
                == "http://127.0.0.1:9/bs/alerts?lat=52.52&lon=13.41")
    }

    @Test("strong heat in Weiherhammer: one warning in English and German, CAP's spelling restored, the warn cell")
    func strongHeat() throws {
        let body = try Fixture.bytes("brightsky-alerts-weiherhammer-strong-heat-20230822")
        let (covered, warnings) = try brightSky.decodeAlerts(status: 200, body: body)
        #expect(covered)
        #expect(warnings.map(\.language) == ["en", "de"])
        let english = try #require(warnings.first)
        #expect(english.id == "2.49.0.0.276.0.DWD.PVW.1692689700000.a2003648-2a6c-45fc-be7d-275f295146fc")
        #expect(english.source == .brightsky)
        #expect(english.sender == "Deutscher Wetterdienst")
        #expect(english.event == "strong heat")
        #expect(english.headline == "Official WARNING of STRONG HEAT")
        #expect(english.severity == .minor && english.severity.cap == "Minor")
        #expect(english.urgency == "Immediate", "Bright Sky writes immediate")
        #expect(english.certainty == "Likely")
        #expect(english.responseTypes == ["Prepare"])
        #expect(english.areaIds == ["809374166"])
        #expect(english.expires == Timestamp(rfc3339: "2023-08-22T17:00:00+00:00"))
        #expect(english.sent == Timestamp(rfc3339: "2023-08-22T07:35:00+00:00"), "effective stands for sent")
        #expect(warnings.last?.event == "STARKE HITZE")
        #expect(
            WarningRules.active(warnings, now: Timestamp(rfc3339: "2023-08-22T10:00:00Z")!, language: "de").map(
                \.language) == ["de"])
        #expect(BrightSkyWarningProvider.capSpelling("allclear") == "AllClear")
        #expect(BrightSkyWarningProvider.capSpelling(nil) == "Unknown")
    }

    @Test("no warnings in the cell is covered and empty; Bright Sky's 404 is 'not mine'; a 404 not in JSON is an error")
    func coverage() throws {
        let empty = try brightSky.decodeAlerts(
            status: 200, body: try Fixture.bytes("brightsky-alerts-weiherhammer-empty-2023"))
        #expect(empty.covered && empty.warnings.isEmpty)
        let outside = try brightSky.decodeAlerts(
            status: 404, body: Array(#"{"detail":"Requested position is not covered by the DWD"}"#.utf8))
        #expect(!outside.covered && outside.warnings.isEmpty)
        let nowhere = try brightSky.decodeAlerts(status: 200, body: Array(#"{"alerts":[],"location":null}"#.utf8))
        #expect(!nowhere.covered)
        let proxy = failure { () throws(ProviderError) in
            _ = try brightSky.decodeAlerts(status: 404, body: Array("<html>Not Found</html>".utf8))
        }
        #expect(proxy?.kind == .badUpstreamResponse)
        let test = #"{"alerts":[{"alert_id":"t","status":"test","event_en":"x","headline_en":"x"}],"location":null}"#
        #expect(try brightSky.decodeAlerts(status: 200, body: Array(test.utf8)).warnings.isEmpty)
        let headless = #"{"alerts":[{"alert_id":"t","event_en":"x"}],"location":null}"#
        let missing = failure { () throws(ProviderError) in
            _ = try brightSky.decodeAlerts(status: 200, body: Array(headless.utf8))
        }
        #expect(missing?.message.contains("$.alerts[0].headline_en") == true)
    }
}

@Suite("The FOSS Public Alert Server's calls")
struct FPASProviderTests {
    let fpas = FPASWarningProvider()

    @Test("the area asked is a small box around the point, kept within ±90° and ±180°")
    func area() {
        #expect(
            fpas.areaRequest(lat: 35.68, lon: 139.69).url
                == "https://alerts.kde.org/alert/area?min_lat=35.66&max_lat=35.7&min_lon=139.67&max_lon=139.71")
        #expect(
            fpas.areaRequest(lat: -17.0, lon: 179.99).url
                == "https://alerts.kde.org/alert/area?min_lat=-17.02&max_lat=-16.98&min_lon=179.97&max_lon=180")
        #expect(
            fpas.areaRequest(lat: 89.99, lon: -180).url
                == "https://alerts.kde.org/alert/area?min_lat=89.97&max_lat=90&min_lon=-180&max_lon=-179.98")
    }

    @Test("the ids answered must be UUIDs (they go into a URL): anything else is a bad answer")
    func ids() throws {
        let ids = try fpas.decodeIDs(
            Array(#"["4B1E6B8B-7F7C-4C62-9F53-2E8B7C4C5D01","4b1e6b8b-7f7c-4c62-9f53-2e8b7c4c5d01"]"#.utf8))
        #expect(ids == ["4b1e6b8b-7f7c-4c62-9f53-2e8b7c4c5d01"], "lower-cased, once")
        #expect(try fpas.decodeIDs(Array("[]".utf8)).isEmpty)
        for body in [#"["../../etc/passwd"]"#, #"[42]"#, #"{"ids":[]}"#, "<html/>"] {
            let error = failure { () throws(ProviderError) in _ = try fpas.decodeIDs(Array(body.utf8)) }
            #expect(error?.kind == .badUpstreamResponse, "\(body)")
        }
        #expect(fpas.alertRequest(id: "../admin") == nil)
        #expect(
            fpas.alertRequest(id: "4b1e6b8b-7f7c-4c62-9f53-2e8b7c4c5d01")?.url
                == "https://alerts.kde.org/alert/4b1e6b8b-7f7c-4c62-9f53-2e8b7c4c5d01")
    }

    @Test("the feeds of countries: asked in lower case, read with their country in upper case and their state")
    func feeds() throws {
        #expect(
            fpas.feedsRequest(countries: ["JP", "AU"]).url
                == "https://alerts.kde.org/sources/area_status?country_codes=jp&country_codes=au")
        let body = #"""
            {"results":[{"name":"Japan: Japan Meteorological Agency","source_is_official":true,
            "cap_alert_feed_status":"operating","authorityCountry":"jp","register_url":"","latest_published_alert_datetime":null},
            {"name":"Tonga: Tonga Meteorological Service","source_is_official":false,"cap_alert_feed_status":"not reachable",
            "authorityCountry":"to"}]}
            """#
        let feeds = try fpas.decodeFeeds(Array(body.utf8))
        #expect(feeds.map(\.country) == ["JP", "TO"])
        #expect(feeds.map(\.operating) == [true, false])
        #expect(feeds.first?.official == true)
        #expect(failure { () throws(ProviderError) in _ = try fpas.decodeFeeds(Array("[]".utf8)) } != nil)
    }
}
