import Testing
import WeatherDomain

@testable import WeatherCLI

@Suite("weatherd warnings: until when, with its zone")
struct WarningRowTests {
    static let warning: JSONValue = [
        "severity": "Severe", "event": "Wind Advisory", "expires": "2026-11-27T21:00:00.000Z",
        "ends": "2026-11-27T23:30:00.000Z", "headline": "Wind Advisory until Friday",
    ]

    @Test("a warning's end is the place's local time with its offset, or UTC said so when the zone is unknown")
    func untilWithZone() {
        #expect(
            WarningsCommand.row(Self.warning, location: ["lat": 33.45, "lon": -112.07])
                == ["Severe", "Wind Advisory", "until 2026-11-27 23:30 UTC+00:00", "Wind Advisory until Friday"])
        let phoenix: JSONValue = ["lat": 33.45, "lon": -112.07, "utcOffsetSeconds": -25_200]
        #expect(WarningsCommand.row(Self.warning, location: phoenix)[2] == "until 2026-11-27 16:30 UTC-07:00")
        let expiring: JSONValue = ["severity": "Minor", "event": "Frost", "expires": "2026-11-27T21:00:00.000Z"]
        #expect(WarningsCommand.row(expiring, location: nil)[2] == "until 2026-11-27 21:00 UTC+00:00")
    }
}
