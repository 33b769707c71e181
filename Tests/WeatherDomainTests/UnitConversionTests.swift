import Testing
import WeatherDomain

@Suite("Units: conversions, systems, overrides and alert texts")
struct UnitConversionTests {
    static func rounded(_ value: Double) -> Double { Rounding.round(value, decimals: 2) }

    @Test(
        "each temperature unit converts °C, and a difference without the offset",
        arguments: [
            (TemperatureUnit.celsius, -3.0, -3.0, 20.0, 20.0), (.fahrenheit, -3.0, 26.6, 20.0, 36.0),
            (.kelvin, -3.0, 270.15, 20.0, 20.0), (.fahrenheit, 100.0, 212.0, 100.0, 180.0),
            (.fahrenheit, -40.0, -40.0, -40.0, -72.0),
        ])
    func temperature(
        unit: TemperatureUnit, celsius: Double, value: Double, celsiusDifference: Double, difference: Double
    ) {
        #expect(Self.rounded(unit.value(celsius: celsius)) == value)
        #expect(Self.rounded(unit.difference(celsius: celsiusDifference)) == difference)
    }

    @Test(
        "each speed unit converts m/s",
        arguments: [
            (SpeedUnit.metresPerSecond, 10.0, 10.0), (.kilometresPerHour, 10.0, 36.0), (.milesPerHour, 10.0, 22.37),
            (.knots, 10.0, 19.44), (.beaufort, 10.0, 5.0), (.kilometresPerHour, 3.0, 10.8), (.knots, 1.0, 1.94),
        ])
    func speed(unit: SpeedUnit, metresPerSecond: Double, value: Double) {
        #expect(Self.rounded(unit.value(metresPerSecond: metresPerSecond)) == value)
    }

    @Test(
        "the Beaufort force follows the WMO's thresholds in m/s, read to 0.1 m/s",
        arguments: [
            (0.0, 0), (0.24, 0), (0.25, 1), (0.3, 1), (1.5, 1), (1.6, 2), (3.3, 2), (3.4, 3), (5.4, 3), (5.5, 4),
            (7.9, 4), (8.0, 5), (10.7, 5), (10.8, 6), (13.8, 6), (13.9, 7), (17.1, 7), (17.2, 8), (20.7, 8),
            (20.8, 9), (24.4, 9), (24.5, 10), (28.4, 10), (28.5, 11), (32.6, 11), (32.7, 12), (60.0, 12),
        ])
    func beaufort(metresPerSecond: Double, force: Int) {
        #expect(SpeedUnit.beaufort(metresPerSecond: metresPerSecond) == force)
        #expect(SpeedUnit.beaufort.value(metresPerSecond: metresPerSecond) == Double(force))
    }

    @Test(
        "pressure, precipitation and visibility convert hPa, mm and metres",
        arguments: [
            (Quantity.pressure, "hPa", 1013.25, 1013.25), (.pressure, "inHg", 1013.25, 29.92),
            (.pressure, "mmHg", 1013.25, 760.0), (.precipitation, "mm", 12.7, 12.7), (.precipitation, "in", 12.7, 0.5),
            (.visibility, "km", 24_000, 24.0), (.visibility, "mi", 16_093.44, 10.0),
        ])
    func others(quantity: Quantity, unit: String, canonical: Double, value: Double) throws {
        let converted: Double
        switch quantity {
        case .pressure: converted = try #require(PressureUnit(rawValue: unit)).value(hectopascals: canonical)
        case .precipitation: converted = try #require(PrecipitationUnit(rawValue: unit)).value(millimetres: canonical)
        default: converted = try #require(VisibilityUnit(rawValue: unit)).value(metres: canonical)
        }
        #expect(Self.rounded(converted) == value)
    }

    @Test("mmHg: 1050.0 hPa is 787.56, and every pressure 870–1085 hPa rounds as with the exact 760/1013.25")
    func millimetresOfMercury() {
        #expect(Self.rounded(PressureUnit.millimetresOfMercury.value(hectopascals: 1050.0)) == 787.56)
        var wrong: [Int] = []
        for tenths in 8700...10_850 {
            // Hundredths of mmHg, exactly: tenths / 10 × 760 / 1013.25 × 100, rounded half up in integers.
            let exact = (2 * tenths * 760_000 + 101_325) / (2 * 101_325)
            let value = PressureUnit.millimetresOfMercury.value(hectopascals: Double(tenths) / 10)
            if Self.rounded(value) != Double(exact) / 100 { wrong.append(tenths) }
        }
        #expect(wrong.isEmpty, "pressures (in tenths of hPa) rounded off the exact value: \(wrong)")
    }

    @Test(
        "inHg: 1017.44 hPa is 30.04, and every pressure 870–1085 hPa in 0.01 steps rounds as with 1 inHg = 3386.389 Pa")
    func inchesOfMercury() {
        #expect(Self.rounded(PressureUnit.inchesOfMercury.value(hectopascals: 1017.44)) == 30.04)
        #expect(Self.rounded(PressureUnit.inchesOfMercury.value(hectopascals: 1013.25)) == 29.92)
        var wrong: [Int] = []
        for hundredths in 87_000...108_500 {
            // Hundredths of inHg, exactly: hundredths of hPa are Pa, ÷ 3386.389 × 100, rounded half up in integers.
            let exact = (2 * hundredths * 100_000 + 3_386_389) / (2 * 3_386_389)
            let value = PressureUnit.inchesOfMercury.value(hectopascals: Double(hundredths) / 100)
            if Self.rounded(value) != Double(exact) / 100 { wrong.append(hundredths) }
        }
        #expect(wrong.isEmpty, "pressures (in hundredths of hPa) rounded off the exact value: \(wrong.prefix(20))")
    }

    @Test("each system names its units; overrides replace only their quantity")
    func systems() {
        #expect(Units.metric.choice.json["temperature"] == "°C")
        #expect(Units.metric.choice.json["windSpeed"] == "m/s")
        #expect(Units.metric.choice.json["visibility"] == "km")
        let imperial = Units.imperial.choice.json
        #expect(
            [
                imperial["temperature"], imperial["windSpeed"], imperial["pressure"], imperial["precipitation"],
                imperial["visibility"],
            ] == ["°F", "mph", "inHg", "in", "mi"])
        let standard = Units.standard.choice.json
        #expect([standard["temperature"], standard["windSpeed"], standard["visibility"]] == ["K", "m/s", "km"])
        let mixed = UnitChoice(system: .imperial, overrides: UnitOverrides(temperature: .celsius, windSpeed: .beaufort))
        #expect(mixed.json["system"] == "imperial")
        #expect([mixed.json["temperature"], mixed.json["windSpeed"], mixed.json["pressure"]] == ["°C", "Bft", "inHg"])
    }

    @Test(
        "settings/set's decision: overrides are set, kept across a new system, cleared by null, and no-ops write nothing"
    )
    func decisions() throws {
        var state = SettingsState()
        let first = SettingsDecisions.set(
            state,
            SettingsEdit(overrides: UnitOverrides(windSpeed: .kilometresPerHour, pressure: .millimetresOfMercury)))
        #expect(
            first == [
                .settingsChanged(
                    SettingsChange(
                        units: .metric,
                        overrides: UnitOverrides(windSpeed: .kilometresPerHour, pressure: .millimetresOfMercury)))
            ])
        for event in first { state.apply(event) }
        let system = SettingsDecisions.set(state, SettingsEdit(units: .imperial))
        for event in system { state.apply(event) }
        #expect(state.unitChoice.windSpeed == .kilometresPerHour && state.unitChoice.temperature == .fahrenheit)
        #expect(
            SettingsDecisions.set(state, SettingsEdit(overrides: UnitOverrides(windSpeed: .kilometresPerHour))) == [])
        for event in SettingsDecisions.set(state, SettingsEdit(cleared: [.windSpeed])) { state.apply(event) }
        #expect(state.overrides == UnitOverrides(pressure: .millimetresOfMercury))
        #expect(state.unitChoice.windSpeed == .milesPerHour)
        #expect(try SettingsState(json: state.json) == state, "the snapshot form comes back exactly")
        #expect(state.json == ["units": "imperial", "pressure": "mmHg"])
        #expect(state.settings.answer["windSpeed"] == .null && state.settings.answer["resolved"]?["windSpeed"] == "mph")
    }

    @Test("a settings.changed payload with an unknown unit is an error naming the member and the units it may be")
    func badPayload() {
        #expect(throws: FieldError.self) { try SettingsChange(json: ["units": "metric", "windSpeed": "furlongs"]) }
        do {
            _ = try SettingsChange(json: ["units": "metric", "windSpeed": "furlongs"])
        } catch {
            #expect(error.path == "data.windSpeed")
            #expect(error.problem.contains("\"km/h\"") && error.problem.contains("\"Bft\""))
        }
    }

    static let place = Place(name: "Plains", country: "US", state: nil, lat: 35.2, lon: -97.4)

    static func alert(_ rule: AlertRule, _ details: JSONValue) -> RaisedAlert {
        RaisedAlert(
            id: "alert-1", rule: rule, key: place.key, place: place, favoriteId: "fav-1", localDate: "2026-11-22",
            raisedAt: Timestamp(milliseconds: 1_795_348_800_000), message: "as raised", details: details)
    }

    @Test("a temperature drop reads in the reader's unit, the drop converted as a difference, sensibly rounded")
    func dropTexts() {
        let drop = Self.alert(.tempDrop, ["temperature": -3.15, "previous": 16.85, "drop": 20.0])
        let imperial = Units.imperial.choice
        #expect(AlertText.message(of: drop, in: imperial) == "The temperature fell 36 °F, to 26.3 °F.")
        let rendered = drop.json(in: imperial)
        #expect(rendered["details"]?["drop"] == 36.0)
        #expect(rendered["details"]?["temperature"] == 26.33)
        #expect(rendered["details"]?["previous"] == 62.33)
        #expect(rendered["units"]?["temperature"] == "°F")
        let kmh = UnitChoice(system: .metric, overrides: UnitOverrides(windSpeed: .kilometresPerHour))
        let celsius = Self.alert(.tempDrop, ["temperature": -3.0, "previous": 17.0, "drop": 20.0])
        #expect(AlertText.message(of: celsius, in: kmh) == "The temperature fell 20 °C, to -3 °C.")
        #expect(celsius.json(in: kmh)["units"]?["windSpeed"] == "km/h")
        let kelvin = UnitChoice(system: .imperial, overrides: UnitOverrides(temperature: .kelvin))
        #expect(AlertText.message(of: celsius, in: kelvin) == "The temperature fell 20 K, to 270.2 K.")
        let ahead = Self.alert(.tempDrop, ["temperature": 10.0, "low": -2.5, "at": "2026-11-22T18:00:00.000Z"])
        #expect(
            AlertText.message(of: ahead, in: imperial)
                == "The temperature will fall to 27.5 °F within 24 h (now 50 °F).")
    }

    @Test("the daily summary reads in the reader's unit; rules without figures keep their message")
    func otherTexts() {
        let summary = Self.alert(.dailySummary, ["low": -17.7, "high": -5.3, "condition": Condition.wmo(71).json])
        #expect(
            AlertText.message(of: summary, in: Units.imperial.choice)
                == "Plains today: \(Condition.wmo(71).text), 0.1 to 22.5 °F.")
        #expect(AlertText.message(of: summary, in: Units.metric.choice).hasSuffix("-17.7 to -5.3 °C."))
        let severe = Self.alert(.severe, ["condition": Condition.wmo(95).json])
        #expect(AlertText.message(of: severe, in: Units.imperial.choice) == "as raised")
    }

    @Test("a raised temperature drop is recorded with its figures in °C and a rounded message")
    func raised() throws {
        let report = CurrentReport(
            place: Self.place, timezone: nil, utcOffsetSeconds: 0,
            current: CurrentConditions(
                observedAt: Timestamp(milliseconds: 1_795_348_800_000), temperature: -3.15, condition: .wmo(3)))
        let events = AlertRules.afterCurrent(
            AlertState(), target: AlertTarget(place: Self.place, favoriteId: nil), report: report,
            previous: (16.85, Timestamp(milliseconds: 1_795_348_000_000)),
            zone: .fixed(0), now: Timestamp(milliseconds: 1_795_348_800_000))
        guard case .alertRaised(let alert)? = events.first else {
            Issue.record("no drop raised")
            return
        }
        #expect(alert.details["temperature"] == -3.15)
        #expect(!alert.message.contains("-3.15"))
        #expect(alert.message.hasPrefix("The temperature fell 20 °C, to -3."))
    }
}
