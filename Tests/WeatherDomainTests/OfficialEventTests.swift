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
        #expect(try WeatherCache(json: cache.json) == cache)
        guard case .object(var older) = WeatherCache().json else { return }
        older["warnings"] = nil
        older["airQuality"] = nil
        older["points"] = nil
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
        #expect(DomainEvent.alertRaised(alert).kind == EventKind("alert.raised", 2))
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
            try EventCatalog.standard.decode(type: "alert.raised", version: 3, data: v1Alert)
                == .unknown(
                    EventKind("alert.raised", 3)))
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
}
