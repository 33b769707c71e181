import Testing
import WeatherDomain

/// The field error `body` throws, or nil when it succeeds.
private func fieldError(_ body: () throws(FieldError) -> Void) -> FieldError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}

@Suite("Official warning rules")
struct WarningRulesTests {
    static let hour: Int64 = 3_600_000
    static let noon = Timestamp(milliseconds: 1_704_628_800_000)  // 2024-01-07T12:00:00Z

    /// `hours` from noon on 7 January 2024.
    static func at(_ hours: Int64) -> Timestamp { Timestamp(milliseconds: noon.milliseconds + hours * hour) }

    static func warning(
        _ id: String, sent: Int64 = -24, expires: Int64 = 12, ends: Int64? = nil, language: String = "en",
        type: OfficialWarning.MessageType = .alert, replaces: [String] = [], severity: WarningSeverity = .moderate
    ) -> OfficialWarning {
        OfficialWarning(
            id: id, source: .meteoalarm, sender: "Test Service", event: "Wind \(language)", severity: severity,
            certainty: "Likely", urgency: "Future", sent: at(sent), onset: at(-1), expires: at(expires),
            ends: ends.map(at), headline: "Wind for \(id)", description: "Gusts.", instruction: nil, language: language,
            replaces: replaces, areaNames: ["Sarajevo"], areaIds: ["BA006"], messageType: type)
    }

    @Test("severities are ordered unknown < minor < moderate < severe < extreme, read from CAP in any case")
    func severity() {
        #expect(WarningSeverity.allCases.sorted() == [.unknown, .minor, .moderate, .severe, .extreme])
        #expect(WarningSeverity.severe > .moderate)
        #expect(!(WarningSeverity.minor > .moderate))
        #expect(WarningSeverity(cap: "Extreme") == .extreme)
        #expect(WarningSeverity(cap: " SEVERE ") == .severe)
        #expect(WarningSeverity(cap: "Unknown") == .unknown)
        #expect(WarningSeverity(cap: "Orange") == .unknown)
    }

    @Test("an update replaces what it references; the update is shown, with its raised severity")
    func update() {
        let original = Self.warning("a", sent: -24)
        let update = Self.warning("b", sent: -12, type: .update, replaces: ["a"], severity: .severe)
        let shown = WarningRules.active([original, update], now: Self.noon)
        #expect(shown == [update])
        #expect(shown[0].severity > original.severity)
        // The order of the feed does not matter.
        #expect(WarningRules.active([update, original], now: Self.noon) == [update])
    }

    @Test("a reference from an earlier message replaces nothing, nor does a message referencing itself")
    func earlierReference() {
        let later = Self.warning("a", sent: -6)
        let older = Self.warning("b", sent: -12, type: .update, replaces: ["a"])
        #expect(WarningRules.active([later, older], now: Self.noon).map(\.id) == ["a", "b"])
        let selfReference = Self.warning("c", type: .update, replaces: ["c"])
        #expect(WarningRules.active([selfReference], now: Self.noon).map(\.id) == ["c"])
    }

    @Test("a cancellation hides what it references and is never shown itself, even once expired")
    func cancel() {
        let original = Self.warning("a", sent: -24)
        let other = Self.warning("x", sent: -24)
        let cancel = Self.warning("c", sent: -6, expires: 12, type: .cancel, replaces: ["a"])
        #expect(WarningRules.active([original, other, cancel], now: Self.noon).map(\.id) == ["x"])
        let expiredCancel = Self.warning("c", sent: -6, expires: -1, type: .cancel, replaces: ["a"])
        #expect(WarningRules.active([original, expiredCancel], now: Self.noon).isEmpty)
    }

    @Test(
        "active until ends when given, else expires; the instant itself is past",
        arguments: [
            (12, nil, 11, true), (12, nil, 12, false), (-3, 30, 29, true), (-3, 30, 30, false), (12, 2, 3, false),
            (12, 2, 1, true),
        ] as [(Int64, Int64?, Int64, Bool)])
    func expiry(expires: Int64, ends: Int64?, now: Int64, shown: Bool) {
        let warning = Self.warning("a", expires: expires, ends: ends)
        #expect(warning.activeUntil == Self.at(ends ?? expires))
        #expect(WarningRules.active([warning], now: Self.at(now)).isEmpty == !shown)
    }

    @Test("a warning still to begin is shown")
    func upcoming() {
        var tomorrow = Self.warning("a", expires: 36)
        tomorrow.onset = Self.at(24)
        #expect(WarningRules.active([tomorrow], now: Self.noon) == [tomorrow])
    }

    @Test(
        "one language per warning: the configured one, else English, else the first listed",
        arguments: [
            (["bs", "en"], "bs", "bs"), (["bs", "en"], nil, "en"), (["bs", "en-GB"], "de", "en-GB"),
            (["bs", "hr"], "de", "bs"), (["bs", "en"], "BS-latn", "bs"), (["en-US"], "en", "en-US"),
            (["bs", "hr"], nil, "bs"), (["hr", "bs"], "bs", "bs"),
        ] as [([String], String?, String)])
    func language(available: [String], configured: String?, chosen: String) {
        let versions = available.map { Self.warning("a", language: $0) }
        let shown = WarningRules.active(versions, now: Self.noon, language: configured)
        #expect(shown.map(\.language) == [chosen])
        #expect(shown.first?.event == "Wind \(chosen)")
    }

    @Test("warnings keep the order their ids are first listed in")
    func order() {
        let messages = [
            Self.warning("b", language: "bs"), Self.warning("a"), Self.warning("b", language: "en"),
            Self.warning("c"),
        ]
        #expect(WarningRules.active(messages, now: Self.noon).map(\.id) == ["b", "a", "c"])
        #expect(WarningRules.active(messages, now: Self.noon).map(\.language) == ["en", "en", "en"])
    }

    @Test("a warning round-trips through its JSON, with and without its optional members")
    func warningJSON() throws {
        let full = Self.warning("a", ends: 30, type: .update, replaces: ["x", "y"], severity: .extreme)
        var sparse = Self.warning("b", type: .cancel)
        sparse.onset = nil
        sparse.headline = nil
        sparse.description = nil
        sparse.areaNames = []
        sparse.areaIds = []
        for warning in [full, sparse] {
            #expect(try OfficialWarning(json: warning.json, path: "w") == warning)
            let reparsed = try JSONValue.parse(warning.json.jsonBytes)
            #expect(try OfficialWarning(json: reparsed, path: "w") == warning)
        }
        #expect(full.json["severity"] == "Extreme", "as CAP spells it")
        #expect(full.stateJSON["severity"] == "extreme", "as snapshots name it")
        #expect(try OfficialWarning(json: full.stateJSON, path: "w") == full)
        #expect(full.json["messageType"] == "update")
        #expect(full.json["replaces"] == ["x", "y"])
        #expect(full.json["ends"] == .string(Self.at(30).description))
        #expect(sparse.json["onset"] == nil)
        #expect(sparse.json["instruction"] == nil)
    }

    @Test(
        "a warning's JSON with a bad member names it",
        arguments: [
            ("severity", JSONValue.string("awful"), "w.severity must be Extreme, Severe, Moderate, Minor or Unknown"),
            ("source", "nowhere", "w.source must be one of \"nws\", \"meteoalarm\", \"brightsky\", \"fpas\""),
            ("messageType", nil, "w.messageType is required"), ("expires", "soon", "w.expires must be an RFC 3339"),
            ("replaces", [1], "w.replaces must be an array of strings"),
        ] as [(String, JSONValue?, String)])
    func badWarningJSON(member: String, value: JSONValue?, problem: String) throws {
        guard case .object(var object) = Self.warning("a").json else {
            Issue.record("a warning's JSON is not an object")
            return
        }
        object[member] = value
        let error = try #require(
            fieldError { () throws(FieldError) in _ = try OfficialWarning(json: .object(object), path: "w") })
        #expect(error.description.hasPrefix(problem), "\(error)")
    }

    static let entry = AirQualityEntry(
        time: noon, europeanAqi: 45, usAqi: 61, pm25: 12.5, pm10: 20, ozone: 71.3, nitrogenDioxide: 9.9,
        sulphurDioxide: 1.2, carbonMonoxide: 210, uvIndex: 3.4, alderPollen: 0, birchPollen: 14.2, grassPollen: 3,
        mugwortPollen: 0.1, olivePollen: 0, ragweedPollen: 0.4)

    @Test("an air-quality report round-trips; absent values stay absent, never 0")
    func airQualityJSON() throws {
        let sparse = AirQualityEntry(time: Self.at(1), owmAqi: 2, pm25: 8)
        let report = AirQualityReport(
            place: Place(name: "Vienna", country: "AT", state: nil, lat: 48.21, lon: 16.37), current: Self.entry,
            hourly: [sparse, AirQualityEntry(time: Self.at(2))])
        #expect(try AirQualityReport(json: report.json, path: "aq") == report)
        #expect(try AirQualityReport(json: JSONValue.parse(report.json.jsonBytes), path: "aq") == report)
        let noCurrent = AirQualityReport(place: report.place, current: nil, hourly: [])
        #expect(try AirQualityReport(json: noCurrent.json, path: "aq") == noCurrent)
        #expect(noCurrent.json["current"] == nil)

        #expect(Self.entry.json["pm2_5"] == 12.5)
        #expect(Self.entry.json["olivePollen"] == 0)
        #expect(sparse.json == ["time": .string(Self.at(1).description), "owmAqi": 2, "pm2_5": 8])
        #expect(sparse.json["ozone"] == nil)
        #expect(!sparse.isEmpty)
        #expect(AirQualityEntry(time: Self.noon).isEmpty)
    }

    @Test("an air-quality entry's JSON with a bad member names it")
    func badAirQualityJSON() throws {
        let json: JSONValue = ["time": .string(Self.noon.description), "pm10": "lots"]
        let error = try #require(
            fieldError { () throws(FieldError) in
                _ = try AirQualityReport(json: ["place": ["lat": 1, "lon": 2], "hourly": [json]], path: "aq")
            })
        #expect(error.description == "aq.hourly[0].pm10 must be a number")
    }

    @Test(
        "European AQI levels by the EEA bands; a boundary belongs to the lower band",
        arguments: [
            (0.0, EuropeanAQILevel.good), (20, .good), (20.5, .fair), (40, .fair), (41, .moderate), (60, .moderate),
            (61, .poor), (80, .poor), (81, .veryPoor), (100, .veryPoor), (100.1, .extremelyPoor), (250, .extremelyPoor),
        ])
    func europeanLevels(index: Double, level: EuropeanAQILevel) {
        #expect(EuropeanAQILevel(index: index) == level)
        #expect(AirQualityEntry(time: Self.noon, europeanAqi: index).europeanLevel == level)
    }

    @Test("European AQI level names are the EEA's words")
    func europeanLevelNames() {
        #expect(
            EuropeanAQILevel.allCases.map(\.rawValue) == [
                "good", "fair", "moderate", "poor", "very poor", "extremely poor",
            ])
    }
}
