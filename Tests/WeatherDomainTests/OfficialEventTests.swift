import Testing
import WeatherDomain

@Suite("Official warning and air-quality events")
struct OfficialEventTests {
    static let t0 = Timestamp(milliseconds: 1_795_348_800_000)
    static let call = UpstreamCall(
        provider: "meteoalarm", url: "https://feeds.meteoalarm.org/api/v1/warnings/feeds-bosnia-herzegovina",
        status: 200, latencyMs: 80, bytes: 900, attempt: 1, at: t0)
    static let warning = OfficialWarning(
        id: "2.49.0.0.70.0.BA.1", source: .meteoalarm, sender: "FHMZ BiH", event: "Wind Yellow Warning",
        severity: .moderate, certainty: "Likely", urgency: "Future", sent: t0,
        onset: Timestamp(milliseconds: t0.milliseconds + 3_600_000),
        expires: Timestamp(milliseconds: t0.milliseconds + 86_400_000), headline: "Wind", language: "en",
        replaces: ["2.49.0.0.70.0.BA.0"], areaNames: ["Sarajevo"], areaIds: ["BA004"], messageType: .update)
    static let place = Place(name: "Forlì", country: "IT", state: nil, lat: 44.22, lon: 12.04)
    static let documentID = "4b1e6b8b-7f7c-4c62-9f53-2e8b7c4c5d01"
    /// A CAP document's cancel, with a polygon across ±180°, a circle and the members v2 added.
    static let cancel = OfficialWarning(
        id: "fj-2", source: .fpas, sender: "Fiji Meteorological Service", event: "Gale", severity: .severe,
        certainty: "Likely", urgency: "Expected", sent: t0, effective: t0, expires: nil, web: "https://met.gov.fj",
        language: "en", replaces: ["fj-1"], areaNames: ["Fiji waters"], areaIds: ["FJ01"], messageType: .cancel,
        responseTypes: ["AllClear"],
        shapes: WarningShapes(
            polygons: [
                [.init(lat: -17.5, lon: 179.5), .init(lat: -17.5, lon: -179.5), .init(lat: -16.5, lon: -179.5)]
            ],
            circles: [.init(center: .init(lat: -17, lon: 178), radiusKm: 25)]))

    static let samples: [DomainEvent] = [
        .warningsFetched(WarningsFetched(source: .meteoalarm, key: "BA", call: call, warnings: [warning])),
        .warningsFetched(WarningsFetched(source: .nws, key: "33.45,-112.07", call: call, warnings: [])),
        .airQualityFetched(
            AirQualityFetched(
                kind: .airQuality, key: place.key, call: call,
                report: AirQualityReport(
                    place: place, current: AirQualityEntry(time: t0, europeanAqi: 38, pm25: 9.1),
                    hourly: [AirQualityEntry(time: t0, europeanAqi: 40), AirQualityEntry(time: t0, grassPollen: 12)]))),
        .airQualityFetched(
            AirQualityFetched(
                kind: .forecast, key: place.key, call: call,
                report: AirQualityReport(place: place, current: nil, hourly: [AirQualityEntry(time: t0, owmAqi: 2)]))),
        .warningsFetched(
            WarningsFetched(source: .brightsky, key: "55.6,12.6", call: call, warnings: [], covered: false)),
        .warningsFetched(WarningsFetched(source: .fpas, key: documentID, call: call, warnings: [cancel])),
        .warningsListed(
            WarningsListed(
                source: .fpas, kind: .alerts, key: "-17,179.99", call: call,
                listing: WarningsListed.Listing(ids: [documentID]))),
        .warningsListed(
            WarningsListed(
                source: .fpas, kind: .feeds, key: "FJ,TO", call: call,
                listing: WarningsListed.Listing(feeds: [
                    WarningsListed.Feed(name: "Fiji: FMS", country: "FJ", status: "operating", official: true),
                    WarningsListed.Feed(name: "Tonga: TMS", country: "TO", status: "not reachable", official: nil),
                ]))),
        .pointFetched(
            PointFetched(kind: .nwsPoint, key: "45.52,-122.68", call: call, facts: PointFetched.Facts(covered: true))),
        .pointFetched(
            PointFetched(
                kind: .reverseGeocode, key: "43.86,18.41", call: call,
                facts: PointFetched.Facts(
                    place: Place(name: "Sarajevo", country: "BA", state: nil, lat: 43.852, lon: 18.387)))),
    ]

    @Test("every new event decodes from its own data", arguments: samples)
    func roundTrip(event: DomainEvent) throws {
        let data = try JSONValue.parse(event.data.jsonBytes)
        let outcome = try EventCatalog.standard.decode(type: event.kind.type, version: event.kind.version, data: data)
        #expect(outcome == .event(event))
    }

    @Test("a line whose payload compaction stripped reads with its audit facts and an empty payload")
    func compacted() throws {
        guard case .object(var warnings) = Self.samples[0].data else { throw FieldError(path: "$", problem: "") }
        warnings["warnings"] = nil
        warnings["compacted"] = [
            "bytes": 400, "members": ["warnings"], "sha256": .string(String(repeating: "a", count: 64)),
        ]
        let outcome = try EventCatalog.standard.decode(type: "warnings.fetched", version: 1, data: .object(warnings))
        guard case .event(.warningsFetched(let fetched)) = outcome else {
            Issue.record("not a warnings.fetched: \(outcome)")
            return
        }
        #expect(fetched.warnings.isEmpty)
        #expect(fetched.key == "BA")
        #expect(fetched.call == Self.call)

        guard case .object(var air) = Self.samples[2].data else { throw FieldError(path: "$", problem: "") }
        air["current"] = nil
        air["hourly"] = nil
        air["compacted"] = [
            "bytes": 400, "members": ["current", "hourly"], "sha256": .string(String(repeating: "b", count: 64)),
        ]
        let airOutcome = try EventCatalog.standard.decode(type: "air_quality.fetched", version: 1, data: .object(air))
        guard case .event(.airQualityFetched(let fetchedAir)) = airOutcome else {
            Issue.record("not an air_quality.fetched: \(airOutcome)")
            return
        }
        #expect(fetchedAir.report.current == nil)
        #expect(fetchedAir.report.hourly.isEmpty)

        guard case .object(var missing) = Self.samples[0].data else { throw FieldError(path: "$", problem: "") }
        missing["warnings"] = nil
        #expect(throws: FieldError.self) {
            try EventCatalog.standard.decode(type: "warnings.fetched", version: 1, data: .object(missing))
        }
    }

    @Test("the cache keeps the latest set per source and area and each point's answers; its canonical form round-trips")
    func cache() throws {
        var cache = WeatherCache()
        for event in Self.samples { cache.apply(event) }
        #expect(cache.warnings["meteoalarm|BA"]?.value == [Self.warning])
        #expect(cache.warnings["nws|33.45,-112.07"]?.value == [])
        #expect(cache.airQuality["air_quality|44.22,12.04"]?.value.current?.europeanAqi == 38)
        #expect(cache.airQuality["air_quality_forecast|44.22,12.04"]?.value.hourly.first?.owmAqi == 2)
        #expect(cache.points["nws_point|45.52,-122.68"]?.value == PointFetched.Facts(covered: true))
        #expect(cache.points["reverse_geocode|43.86,18.41"]?.value.place?.country == "BA")
        #expect(cache.uncovered["brightsky|55.6,12.6"] == Self.t0, "Bright Sky said the point is not its own")
        #expect(cache.warnings["fpas|\(Self.documentID)"]?.value == [Self.cancel])
        #expect(cache.warningLists["fpas|alerts|-17,179.99"]?.value.ids == [Self.documentID])
        #expect(cache.warningLists["fpas|feeds|FJ,TO"]?.value.feeds.map(\.operating) == [true, false])
        #expect(try WeatherCache(json: cache.json) == cache)
        #expect(try WeatherCache(json: JSONValue.parse(cache.json.jsonBytes)) == cache)
        guard case .object(var older) = WeatherCache().json else { return }
        older["warnings"] = nil
        older["airQuality"] = nil
        older["points"] = nil
        older["uncovered"] = nil
        older["warningLists"] = nil
        #expect(try WeatherCache(json: .object(older)) == WeatherCache(), "a snapshot from before reads as empty")
    }

    @Test("alert.raised and alerts.configured v1 read as v2: origin forecast, the official rule on, air quality off")
    func upcasting() throws {
        let v1Alert: JSONValue = [
            "id": "alert-1", "rule": "severe", "key": "35.2,-97.4", "place": ["lat": 35.2, "lon": -97.4],
            "localDate": "2026-11-22", "raisedAt": "2026-11-22T12:02:00.000Z", "message": "Severe weather now.",
            "details": [:],
        ]
        guard
            case .event(.alertRaised(let alert)) = try EventCatalog.standard.decode(
                type: "alert.raised", version: 1, data: v1Alert)
        else {
            Issue.record("alert.raised v1 not read")
            return
        }
        #expect(alert.rule == .severe)
        #expect(alert.json["origin"] == "forecast")
        #expect(DomainEvent.alertRaised(alert).kind == EventKind("alert.raised", 3))
        let v1Settings: JSONValue = [
            "dailySummary": ["enabled": true, "time": "07:15"], "tempDropC": 8.0, "severe": false,
        ]
        guard
            case .event(.alertsConfigured(let settings)) = try EventCatalog.standard.decode(
                type: "alerts.configured", version: 1, data: v1Settings)
        else {
            Issue.record("alerts.configured v1 not read")
            return
        }
        #expect(settings.official)
        #expect(!settings.airQualityEnabled)
        #expect(settings.airQualityLevel == .poor)
        #expect(settings.dailySummaryMinutes == 7 * 60 + 15)
        #expect(
            try EventCatalog.standard.decode(type: "alert.raised", version: 4, data: v1Alert)
                == .unknown(
                    EventKind("alert.raised", 4)))
    }

    @Test("an update's thread leads back to its first message, through what a restart remembers")
    func lineage() {
        var first = Self.warning
        first.id = "A"
        first.replaces = []
        var update = Self.warning
        update.id = "B"
        update.replaces = ["A"]
        var again = Self.warning
        again.id = "C"
        again.replaces = ["B"]
        var lineage = OfficialAlerts.Lineage()
        #expect(lineage.record([first], isFirst: { _ in false }) == ["A": "A"])
        #expect(lineage.record([update], isFirst: { _ in false }) == ["B": "A"])
        #expect(lineage.record([again], isFirst: { _ in false }) == ["C": "A"])
        var restarted = OfficialAlerts.Lineage()
        #expect(restarted.record([update], isFirst: { $0 == "A" }) == ["B": "A"], "A was raised before the restart")
        #expect(restarted.record([again], isFirst: { _ in false }) == ["C": "A"])
        var unknown = OfficialAlerts.Lineage()
        #expect(unknown.record([again], isFirst: { _ in false }) == ["C": "C"], "an unknown thread starts anew")
    }

    @Test("warnings.fetched v1 reads as v2 with each severity spelt as CAP does, and nothing else changed")
    func warningsUpcast() throws {
        guard case .object(var v1) = Self.samples[0].data,
            case .array(let warnings) = v1["warnings"] ?? .null, case .object(var first) = warnings[0]
        else { throw FieldError(path: "$", problem: "") }
        first["severity"] = "moderate"
        v1["warnings"] = [.object(first)]
        let outcome = try EventCatalog.standard.decode(type: "warnings.fetched", version: 1, data: .object(v1))
        #expect(outcome == .event(Self.samples[0]))
        guard case .event(let event) = outcome else { return }
        #expect(event.kind == EventKind("warnings.fetched", 2))
        #expect(event.data["warnings"]?.arrayValue?.first?["severity"] == "Moderate")
        first["severity"] = "awful"
        v1["warnings"] = [.object(first)]
        #expect(throws: FieldError.self) {
            try EventCatalog.standard.decode(type: "warnings.fetched", version: 1, data: .object(v1))
        }
    }

    @Test("an official alert.raised v2 reads as v3 as it was raised; its key and its answer name one severity")
    func officialAlertUpcast() throws {
        var details = Self.warning.json
        if case .object(var object) = details {
            object["severity"] = "severe"
            details = .object(object)
        }
        let v2: JSONValue = [
            "id": "alert-2", "rule": "official", "origin": "official", "key": "43.86,18.41",
            "place": ["lat": 43.86, "lon": 18.41], "localDate": "2026-11-22", "raisedAt": "2026-11-22T12:02:00.000Z",
            "message": "FHMZ BiH: Wind (Sarajevo); raised from moderate to severe.",
            "details": ["warning": details, "firstId": "2.49.0.0.70.0.BA.0", "attribution": "EUMETNET – MeteoAlarm"],
        ]
        guard
            case .event(.alertRaised(let alert)) = try EventCatalog.standard.decode(
                type: "alert.raised", version: 2, data: v2)
        else {
            Issue.record("alert.raised v2 not read")
            return
        }
        #expect(alert.details["warning"]?["severity"] == "severe", "kept as raised: the state replays to what it was")
        #expect(alert.dedupKey == "43.86,18.41|official|2.49.0.0.70.0.BA.0|severe")
        var raisedNow = alert
        raisedNow.details = [
            "warning": Self.warning.json, "firstId": "2.49.0.0.70.0.BA.0", "attribution": "EUMETNET – MeteoAlarm",
        ]
        #expect(raisedNow.details["warning"]?["severity"] == "Moderate")
        #expect(raisedNow.dedupKey == "43.86,18.41|official|2.49.0.0.70.0.BA.0|moderate", "lower case in the key")
        #expect(
            alert.json(in: UnitChoice(system: .metric))["details"]?["warning"]?["severity"] == "Severe",
            "answers spell it as CAP")
    }

    @Test("a CAP document is kept until every message in it has ended, then dropped at the next document's fetch")
    func documentsEnd() throws {
        var cache = WeatherCache()
        var ending = Self.cancel
        ending.expires = Timestamp(milliseconds: Self.t0.milliseconds + 3_600_000)
        ending.id = "ends"
        cache.apply(.warningsFetched(WarningsFetched(source: .fpas, key: "a", call: Self.call, warnings: [ending])))
        cache.apply(
            .warningsFetched(WarningsFetched(source: .fpas, key: "b", call: Self.call, warnings: [Self.cancel])))
        var later = Self.call
        later.at = Timestamp(milliseconds: Self.t0.milliseconds + 2 * 3_600_000)
        cache.apply(.warningsFetched(WarningsFetched(source: .fpas, key: "c", call: later, warnings: [])))
        #expect(cache.warnings["fpas|a"] == nil, "its only message ended an hour before")
        #expect(cache.warnings["fpas|b"] != nil, "a message without an end is kept")
        #expect(cache.warnings["fpas|c"] != nil)
    }
}
