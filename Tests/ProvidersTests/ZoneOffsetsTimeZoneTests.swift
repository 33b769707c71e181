import Providers
import Testing
import WeatherDomain
import WeatherTesting

@Suite("Zone offsets from the time zone database, and Open-Meteo's days across a change of daylight saving time")
struct ZoneOffsetsTimeZoneTests {
    static func time(_ text: String) -> Timestamp { Timestamp(rfc3339: text) ?? Timestamp(milliseconds: .min) }

    /// Fetched in Berlin on Friday 26 March 2027, two days before the clocks go forward.
    static let springFetch = time("2027-03-26T09:00:00Z")
    /// Fetched in Berlin on Friday 29 October 2027, two days before the clocks go back.
    static let autumnFetch = time("2027-10-29T09:00:00Z")

    @Test("Berlin goes to +02:00 at 01:00 UTC on 28 March 2027 and back to +01:00 at 01:00 UTC on 31 October")
    func berlinTransitions() {
        let spring = ZoneOffsets.place(timezone: "Europe/Berlin", utcOffsetSeconds: 3600, around: Self.springFetch)
        #expect(spring.offsetSeconds(at: Self.springFetch) == 3600)
        #expect(spring.offsetSeconds(at: Self.time("2027-03-28T00:59:59Z")) == 3600)
        #expect(spring.offsetSeconds(at: Self.time("2027-03-28T01:00:00Z")) == 7200)
        #expect(spring.offsetSeconds(at: Self.time("2027-04-11T12:00:00Z")) == 7200, "16 days on")

        let autumn = ZoneOffsets.place(timezone: "Europe/Berlin", utcOffsetSeconds: 7200, around: Self.autumnFetch)
        #expect(autumn.offsetSeconds(at: Self.autumnFetch) == 7200)
        #expect(autumn.offsetSeconds(at: Self.time("2027-10-31T00:59:59Z")) == 7200)
        #expect(autumn.offsetSeconds(at: Self.time("2027-10-31T01:00:00Z")) == 3600)
        #expect(autumn.transitions == [.init(at: Self.time("2027-10-31T01:00:00Z"), offsetSeconds: 3600)])
    }

    @Test(
        "a zone without daylight saving time keeps one offset all year",
        arguments: [("Asia/Tokyo", 32_400 as Int64), ("Africa/Nairobi", 10_800 as Int64)])
    func zoneWithoutDST(name: String, offset: Int64) {
        for around in [Self.springFetch, Self.autumnFetch] {
            let zone = ZoneOffsets.place(timezone: name, utcOffsetSeconds: 0, around: around)
            #expect(zone == .fixed(offset), "the database's offset, not the provider's 0")
        }
    }

    @Test("an unknown or absent zone falls back to the provider's one offset")
    func unknownZone() {
        #expect(ZoneOffsets(identifier: "Mars/Olympus_Mons", from: Self.springFetch, through: Self.autumnFetch) == nil)
        let unknown = ZoneOffsets.place(timezone: "Mars/Olympus_Mons", utcOffsetSeconds: 3600, around: Self.springFetch)
        #expect(unknown == .fixed(3600))
        #expect(unknown.offsetSeconds(at: Self.time("2027-03-29T12:00:00Z")) == 3600)
        #expect(
            ZoneOffsets.place(timezone: nil, utcOffsetSeconds: -18_000, around: Self.springFetch) == .fixed(-18_000))
        #expect(ZoneOffsets.place(timezone: "", utcOffsetSeconds: 19_800, around: Self.springFetch) == .fixed(19_800))
    }

    @Test("Open-Meteo's days summarized from hours are Berlin's local dates: 28 March 2027 has 23 hours")
    func daysFromHoursAcrossSpringForward() throws {
        // Open-Meteo's hours begin at local midnight of the fetch day: 26 March 00:00 CET.
        let body = OpenMeteoBodies.forecast(start: Self.time("2027-03-25T23:00:00Z"), hours: 144, days: 0)
        let place = Place(name: "Berlin", country: "DE", state: nil, lat: 52.52, lon: 13.41)
        let report = try OpenMeteoProvider().decodeForecast(body, place: place)
        #expect(report.timezone == "Europe/Berlin")
        #expect(report.utcOffsetSeconds == 3600)
        // Hour i is i * 0.5 °C: 26 March is hours 0…23, 27 March 24…47, 28 March 48…70, 29 March 71…94.
        #expect(report.daily.prefix(4).map(\.date) == ["2027-03-26", "2027-03-27", "2027-03-28", "2027-03-29"])
        #expect(report.daily.prefix(4).map(\.max) == [11.5, 23.5, 35, 47])
        #expect(report.daily.prefix(4).map(\.min) == [0, 12, 24, 35.5])
    }

    @Test("Open-Meteo's days summarized from hours are Berlin's local dates: 31 October 2027 has 25 hours")
    func daysFromHoursAcrossFallBack() throws {
        // 30 October 00:00 CEST.
        let body = OpenMeteoBodies.forecast(
            start: Self.time("2027-10-29T22:00:00Z"), hours: 96, utcOffsetSeconds: 7200, days: 0)
        let place = Place(name: "Berlin", country: "DE", state: nil, lat: 52.52, lon: 13.41)
        let report = try OpenMeteoProvider().decodeForecast(body, place: place)
        // 30 October is hours 0…23, 31 October 24…48, 1 November 49…72.
        #expect(report.daily.prefix(3).map(\.date) == ["2027-10-30", "2027-10-31", "2027-11-01"])
        #expect(report.daily.prefix(3).map(\.max) == [11.5, 24, 36])
        #expect(report.daily.prefix(3).map(\.min) == [0, 12, 24.5])
    }

    @Test("Open-Meteo's own days keep their dates: the offset of the answer reads each day's midnight back")
    func ownDaysAcrossFallBack() throws {
        let body = OpenMeteoBodies.forecast(
            start: Self.time("2027-10-28T22:00:00Z"), hours: 96, utcOffsetSeconds: 7200, days: 6)
        let place = Place(name: "Berlin", country: "DE", state: nil, lat: 52.52, lon: 13.41)
        let report = try OpenMeteoProvider().decodeForecast(body, place: place)
        #expect(
            report.daily.map(\.date) == [
                "2027-10-29", "2027-10-30", "2027-10-31", "2027-11-01", "2027-11-02", "2027-11-03",
            ])
    }
}
