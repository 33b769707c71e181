import Testing
import WeatherDomain

@Suite("Timestamp")
struct TimestampTests {
    @Test(
        "formats RFC 3339 with milliseconds in UTC",
        arguments: [
            (Int64(0), "1970-01-01T00:00:00.000Z"),
            (1_795_372_467_123, "2026-11-22T18:34:27.123Z"),
            (951_782_400_000, "2000-02-29T00:00:00.000Z"),
            (-1, "1969-12-31T23:59:59.999Z"),
            (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
        ])
    func formats(milliseconds: Int64, text: String) throws {
        #expect(Timestamp(milliseconds: milliseconds).description == text)
        #expect(try #require(Timestamp(rfc3339: text)).milliseconds == milliseconds)
    }

    @Test("parses offsets and fractions")
    func parsesOffsets() throws {
        #expect(Timestamp(rfc3339: "2026-11-22T20:34:27+02:00")?.milliseconds == 1_795_372_467_000)
        #expect(Timestamp(rfc3339: "2026-11-22T18:04:27.5-00:30")?.milliseconds == 1_795_372_467_500)
    }

    @Test(
        "rejects malformed times",
        arguments: [
            "", "2026-11-22", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-11-22T18:34:27",
            "2026-11-22T18:34:27.Z", "2026-11-22 18:34:27Z", "2026-11-22T24:00:00Z", "2026-11-22T18:34:27+2:00",
        ])
    func rejects(text: String) {
        #expect(Timestamp(rfc3339: text) == nil)
    }
}
