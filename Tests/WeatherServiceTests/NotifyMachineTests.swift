import Testing
import WeatherDomain

@testable import WeatherCLI

@Suite("weatherd notify's decisions: show, replace, close, once only, after a long absence")
struct NotifyMachineTests {
    static let now = Timestamp(milliseconds: 1_795_348_800_000)

    static func at(_ minutes: Int64) -> Timestamp { Timestamp(milliseconds: now.milliseconds + minutes * 60_000) }

    static func machine(_ cursor: NotifyCursor = NotifyCursor(), caughtUp: Bool = true) -> NotifyMachine {
        var machine = NotifyMachine(cursor: cursor, desktop: true, hook: true, units: Units.imperial.choice)
        if caughtUp { _ = machine.backlogRead(now: now) }
        return machine
    }

    static func warning(
        _ id: String, severity: String = "Severe", until minutes: Int64 = 120, replaces: [String] = []
    ) -> JSONValue {
        .object([
            "id": .string(id), "source": "nws", "sender": "NWS Phoenix", "event": "Wind Advisory",
            "severity": .string(severity), "certainty": "Likely", "urgency": "Expected",
            "sent": .string(now.description),
            "expires": .string(at(minutes).description), "language": "en-US",
            "replaces": .array(replaces.map { .string($0) }), "areaNames": [], "areaIds": [],
            "messageType": replaces.isEmpty ? "alert" : "update",
        ])
    }

    static func raised(
        seq: Int64, number: Int64, rule: String = "official", warning: JSONValue? = nil, first: String? = nil,
        raisedAt: Timestamp = now, details: JSONValue? = nil
    ) -> JSONValue {
        var alertDetails = details ?? .object([:])
        if let warning { alertDetails = .object(["warning": warning, "firstId": .string(first ?? "w1")]) }
        return .object([
            "seq": .int(seq), "type": "alert.raised",
            "data": .object([
                "id": .string("alert-\(number)"), "rule": .string(rule), "key": "33.45,-112.07",
                "place": .object(["name": "Phoenix", "lat": 33.45, "lon": -112.07]), "localDate": "2026-11-22",
                "raisedAt": .string(raisedAt.description), "message": "Something.", "details": alertDetails,
            ]),
        ])
    }

    static func fetched(seq: Int64, _ warnings: [JSONValue]) -> JSONValue {
        .object([
            "seq": .int(seq), "type": "warnings.fetched",
            "data": .object(["source": "nws", "key": "33.45,-112.07", "warnings": .array(warnings)]),
        ])
    }

    @Test("an official warning is shown critical with the alert icon, and run through the hook")
    func shows() throws {
        var machine = Self.machine()
        let actions = machine.event(Self.raised(seq: 5, number: 1, warning: Self.warning("w1")), now: Self.now)
        guard case .show(let notice, let replaces, let thread) = actions.first else {
            Issue.record("\(actions)")
            return
        }
        #expect(replaces == 0 && thread == "w1")
        #expect(notice.urgency == 2 && notice.icon == "weather-severe-alert")
        #expect(notice.summary == "Wind Advisory (Phoenix)")
        guard case .run(let hooked, let json) = actions.last else {
            Issue.record("\(actions)")
            return
        }
        #expect(hooked.environment["WEATHERD_SEVERITY"] == "Severe")
        #expect(hooked.environment["WEATHERD_PLACE"] == "Phoenix")
        #expect(json["units"]?["system"] == "imperial")
        #expect(machine.cursor.seq == 5)
    }

    @Test(
        "urgency follows severity, in the log's lower case as in CAP's capitals; the hook is told it capitalised",
        arguments: [
            ("minor", 0, "Minor"), ("moderate", 1, "Moderate"), ("severe", 2, "Severe"), ("extreme", 2, "Extreme"),
            ("Severe", 2, "Severe"), ("unknown", 1, "Moderate"),
        ])
    func urgency(severity: String, expected: Int, told: String) {
        var machine = Self.machine()
        let actions = machine.event(
            Self.raised(seq: 1, number: 1, warning: Self.warning("w1", severity: severity)), now: Self.now)
        guard case .show(let notice, _, _) = actions.first else {
            Issue.record("\(actions)")
            return
        }
        #expect(notice.urgency == UInt8(expected))
        #expect(notice.environment["WEATHERD_SEVERITY"] == told)
    }

    @Test("a severe-weather alert takes its condition's icon; a daily summary is low urgency")
    func forecastAlerts() {
        var machine = Self.machine()
        let storm = machine.event(
            Self.raised(
                seq: 1, number: 1, rule: "severe",
                details: .object(["condition": .object(["scheme": "wmo", "code": 95, "text": "thunderstorm"])])),
            now: Self.now)
        guard case .show(let notice, _, nil) = storm.first else {
            Issue.record("\(storm)")
            return
        }
        #expect(notice.icon == "weather-storm" && notice.urgency == 2)
        let summary = machine.event(
            Self.raised(
                seq: 2, number: 2, rule: "daily_summary",
                details: .object([
                    "low": 1, "high": 5, "condition": .object(["scheme": "wmo", "code": 61, "text": "rain"]),
                ])),
            now: Self.now)
        guard case .show(let daily, _, nil) = summary.first else {
            Issue.record("\(summary)")
            return
        }
        #expect(daily.icon == "weather-showers" && daily.urgency == 0)
        let rain = machine.event(
            Self.raised(seq: 3, number: 3, rule: "nowcast", details: ["state": "starting", "precipitation": "snow"]),
            now: Self.now)
        guard case .show(let soon, _, nil) = rain.first else {
            Issue.record("\(rain)")
            return
        }
        #expect(soon.icon == "weather-snow" && soon.urgency == 1 && soon.summary.hasPrefix("Next hour ("))
        let changed = machine.event(
            Self.raised(
                seq: 4, number: 4, rule: "forecast_change",
                details: .object([
                    "date": "2026-11-28", "condition": .object(["scheme": "wmo", "code": 61, "text": "rain"]),
                ])),
            now: Self.now)
        guard case .show(let change, _, nil) = changed.first else {
            Issue.record("\(changed)")
            return
        }
        #expect(change.icon == "weather-showers" && change.urgency == 0)
        #expect(change.summary.hasPrefix("Forecast changed: Saturday ("))
    }

    @Test("an update raised again replaces the notification; its cancellation and its expiry close it")
    func replaceAndClose() {
        var machine = Self.machine()
        _ = machine.event(Self.fetched(seq: 1, [Self.warning("w1", severity: "Moderate")]), now: Self.now)
        _ = machine.event(
            Self.raised(seq: 2, number: 1, warning: Self.warning("w1", severity: "Moderate")), now: Self.now)
        machine.shown(thread: "w1", id: 7)
        let update = Self.warning("w2", severity: "Extreme", replaces: ["w1"])
        _ = machine.event(Self.fetched(seq: 3, [update]), now: Self.now)
        let replaced = machine.event(Self.raised(seq: 4, number: 2, warning: update, first: "w1"), now: Self.now)
        guard case .show(_, let replaces, "w1") = replaced.first else {
            Issue.record("\(replaced)")
            return
        }
        #expect(replaces == 7)
        #expect(machine.event(Self.fetched(seq: 5, [update]), now: Self.now).isEmpty, "still in force")
        #expect(machine.event(Self.fetched(seq: 6, []), now: Self.now) == [.close(7)], "cancelled")
        #expect(machine.cursor.threads.isEmpty)

        _ = machine.event(
            Self.raised(seq: 7, number: 3, warning: Self.warning("w9", until: 30), first: "w9"), now: Self.now)
        machine.shown(thread: "w9", id: 8)
        #expect(machine.nextExpiry == Self.at(30))
        #expect(machine.expired(now: Self.at(29)).isEmpty)
        #expect(machine.expired(now: Self.at(30)) == [.close(8)], "expired")
        #expect(machine.nextExpiry == nil)
    }

    @Test("an update at the same severity joins the thread, so a later fetch carrying only it keeps it open")
    func quietUpdate() {
        var machine = Self.machine()
        _ = machine.event(Self.fetched(seq: 1, [Self.warning("w1")]), now: Self.now)
        _ = machine.event(Self.raised(seq: 2, number: 1, warning: Self.warning("w1")), now: Self.now)
        machine.shown(thread: "w1", id: 3)
        #expect(machine.event(Self.fetched(seq: 3, [Self.warning("w2", replaces: ["w1"])]), now: Self.now).isEmpty)
        #expect(machine.event(Self.fetched(seq: 4, [Self.warning("w3", replaces: ["w2"])]), now: Self.now).isEmpty)
        #expect(machine.event(Self.fetched(seq: 5, []), now: Self.now) == [.close(3)])
    }

    @Test("once only: a restarted machine with the saved cursor skips what it handled and still closes")
    func onceOnly() throws {
        var machine = Self.machine()
        _ = machine.event(Self.fetched(seq: 1, [Self.warning("w1")]), now: Self.now)
        _ = machine.event(Self.raised(seq: 2, number: 1, warning: Self.warning("w1")), now: Self.now)
        machine.shown(thread: "w1", id: 4)
        let saved = try NotifyCursor(json: try JSONValue.parse(machine.cursor.json.jsonString))
        #expect(saved == machine.cursor)
        var restarted = Self.machine(saved, caughtUp: false)
        #expect(restarted.event(Self.raised(seq: 2, number: 1, warning: Self.warning("w1")), now: Self.now).isEmpty)
        #expect(restarted.backlogRead(now: Self.now).isEmpty)
        #expect(restarted.event(Self.fetched(seq: 3, []), now: Self.now) == [.close(4)])
    }

    @Test("after a long absence: old alerts are passed over, warnings still in force shown at the backlog's end")
    func longAbsence() {
        var machine = Self.machine(caughtUp: false)
        let later = Self.at(180)
        let old = Self.raised(seq: 1, number: 1, rule: "temp_drop", raisedAt: Self.now)
        #expect(machine.event(old, now: later).isEmpty, "a temperature drop three hours ago")
        #expect(machine.cursorKeepable, "nothing is held back yet")
        _ = machine.event(
            Self.fetched(seq: 2, [Self.warning("w1", until: 600), Self.warning("w2", until: 600)]), now: later)
        #expect(
            machine.event(Self.raised(seq: 3, number: 2, warning: Self.warning("w1", until: 600)), now: later).isEmpty)
        #expect(
            machine.event(
                Self.raised(seq: 4, number: 3, warning: Self.warning("w2", until: 600), first: "w2"), now: later
            )
            .isEmpty)
        let expired = Self.raised(seq: 5, number: 4, warning: Self.warning("w3", until: 60), first: "w3")
        #expect(machine.event(expired, now: later).isEmpty, "expired while away")
        #expect(machine.event(Self.fetched(seq: 6, [Self.warning("w1", until: 600)]), now: later).isEmpty)
        #expect(!machine.cursorKeepable, "w1 is held back to the backlog's end: a cursor kept now would pass it over")
        let shown = machine.backlogRead(now: later)
        #expect(machine.cursorKeepable)
        #expect(shown.count == 2, "w1 shown and hooked; w2 was cancelled while away: \(shown)")
        guard case .show(_, 0, "w1") = shown.first else {
            Issue.record("\(shown)")
            return
        }
        let fresh = Self.raised(seq: 7, number: 5, rule: "temp_drop", raisedAt: Self.at(170))
        #expect(machine.event(fresh, now: later).count == 2, "raised ten minutes ago: shown")
    }

    @Test("--exec alone shows nothing on the desktop and still runs")
    func hookOnly() {
        var machine = NotifyMachine(cursor: NotifyCursor(), desktop: false, hook: true, units: Units.metric.choice)
        _ = machine.backlogRead(now: Self.now)
        let actions = machine.event(Self.raised(seq: 1, number: 1, warning: Self.warning("w1")), now: Self.now)
        #expect(actions.count == 1)
        guard case .run = actions.first else {
            Issue.record("\(actions)")
            return
        }
        #expect(machine.event(Self.fetched(seq: 2, []), now: Self.now).isEmpty, "closed with nothing to close")
    }

    static func document(seq: Int64, id: String, _ warnings: [JSONValue]) -> JSONValue {
        .object([
            "seq": .int(seq), "type": "warnings.fetched",
            "data": .object(["source": "fpas", "key": .string(id), "warnings": .array(warnings)]),
        ])
    }

    @Test("an aggregator's CAP document that cancels a shown warning, or declares it over, closes its notification")
    func cancelledByDocument() throws {
        for withdrawal in ["cancel", "allclear", "past"] {
            var machine = Self.machine()
            guard case .object(var first) = Self.warning("w1") else { return }
            first["source"] = "fpas"
            _ = machine.event(Self.document(seq: 1, id: "doc-1", [.object(first)]), now: Self.now)
            _ = machine.event(Self.raised(seq: 2, number: 1, warning: .object(first)), now: Self.now)
            machine.shown(thread: "w1", id: 7)
            // An update in another document joins the thread: nothing is closed.
            guard case .object(var update) = Self.warning("w2", replaces: ["w1"]) else { return }
            update["source"] = "fpas"
            #expect(machine.event(Self.document(seq: 3, id: "doc-2", [.object(update)]), now: Self.now).isEmpty)
            guard case .object(var over) = Self.warning("w3", replaces: ["w2"]) else { return }
            over["source"] = "fpas"
            switch withdrawal {
            case "cancel": over["messageType"] = "cancel"
            case "allclear": over["responseTypes"] = ["AllClear"]
            default: over["urgency"] = "Past"
            }
            let actions = machine.event(Self.document(seq: 4, id: "doc-3", [.object(over)]), now: Self.at(10))
            #expect(actions == [.close(7)], "\(withdrawal)")
            #expect(machine.cursor.threads["w1"] == nil)
        }
    }

    @Test("a warning that gives no end is closed a day after it was raised")
    func endless() throws {
        var machine = Self.machine()
        guard case .object(var warning) = Self.warning("w1") else { return }
        warning["expires"] = nil
        _ = machine.event(Self.raised(seq: 1, number: 1, warning: .object(warning)), now: Self.now)
        machine.shown(thread: "w1", id: 3)
        #expect(machine.nextExpiry == Self.at(24 * 60))
        #expect(machine.expired(now: Self.at(24 * 60 - 1)).isEmpty)
        #expect(machine.expired(now: Self.at(24 * 60)) == [.close(3)])
    }
}
