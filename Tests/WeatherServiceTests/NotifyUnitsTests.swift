import Testing
import WeatherDomain
import WeatherService

@testable import WeatherCLI

@Suite("weatherd notify's units without --units: read from the daemon's settings/get answer")
struct NotifyUnitsTests {
    /// A temperature drop as the log records it: figures in °C.
    static let drop = RaisedAlert(
        id: "alert-1", rule: .tempDrop, key: "33.45,-112.07",
        place: Place(name: "Phoenix", country: "US", state: nil, lat: 33.45, lon: -112.07), favoriteId: "fav-1",
        localDate: "2026-11-22", raisedAt: Timestamp(milliseconds: 1_795_348_800_000), message: "Raised in °C.",
        details: ["temperature": 8.0, "previous": 22.0, "drop": 14.0])

    @Test("an imperial answer (as settings/get gives it) tells a temperature drop in °F")
    func imperial() throws {
        let units = try Notifier.units(settings: SettingsChange(units: .imperial).answer)
        let notice = AlertNotice(Self.drop.json(in: units))
        #expect(notice.body == "The temperature fell 25.2 °F, to 46.4 °F.")
    }

    @Test(
        "a malformed answer is a clear error that names --units, not a crash",
        arguments: [JSONValue.null, .array([]), ["units": "kelvin"], ["units": 3], ["speed": "knots"]])
    func malformed(answer: JSONValue) {
        do {
            _ = try Notifier.units(settings: answer)
            Issue.record("\(answer) was read as settings")
        } catch {
            #expect(error.kind == "bad_settings")
            #expect(error.message.hasPrefix("the daemon's settings (settings/get) could not be read: "))
            #expect(error.message.hasSuffix("give --units to choose the units"))
        }
    }
}
