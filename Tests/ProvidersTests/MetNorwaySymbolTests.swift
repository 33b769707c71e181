import Providers
import Testing
import WeatherDomain

@Suite("MET Norway's weather symbols as WMO codes, and the zone of a place its answer does not name")
struct MetNorwaySymbolTests {
    @Test(
        "a symbol is the nearest WMO code; its suffix tells day from night",
        arguments: [
            ("clearsky_day", 0, true), ("clearsky_night", 0, false), ("fair_day", 1, true),
            ("partlycloudy_night", 2, false), ("cloudy", 3, nil), ("fog", 45, nil), ("lightrain", 61, nil),
            ("heavyrain", 65, nil), ("lightrainshowers_day", 80, true), ("heavyrainshowers_polartwilight", 82, false),
            ("lightsleet", 68, nil), ("heavysleet", 69, nil), ("sleetshowers_day", 84, true), ("snow", 73, nil),
            ("heavysnow", 75, nil), ("lightsnowshowers_night", 85, false), ("heavysnowshowers_day", 86, true),
            ("rainandthunder", 95, nil), ("lightssleetshowersandthunder_day", 95, true),
            ("heavysnowandthunder", 95, nil),
        ] as [(String, Int64, Bool?)])
    func symbol(_ symbol: String, _ code: Int64, _ isDay: Bool?) {
        #expect(MetNorwaySymbol.condition(symbol) == .wmo(code))
        #expect(MetNorwaySymbol.split(symbol).isDay == isDay)
    }

    @Test("every symbol MET Norway documents reads as a WMO code weatherd knows, with a theme and an HA name")
    func everySymbolKnown() {
        #expect(MetNorwaySymbol.wmoCodes.count == 41)
        for (base, code) in MetNorwaySymbol.wmoCodes {
            #expect(!WMOCode.text(code).hasPrefix("unknown"), "\(base)")
            #expect(HACondition.of(.wmo(code), isDay: true) != nil, "\(base)")
        }
        #expect(MetNorwaySymbol.condition("sleet").theme == .snowy)
        #expect(HACondition.of(MetNorwaySymbol.condition("sleet"), isDay: true) == .snowyRainy)
        #expect(MetNorwaySymbol.condition("heavyrainandthunder").isSevere)
    }

    @Test("an unknown symbol is not reported (WMO -1), naming the symbol")
    func unknownSymbol() {
        let condition = MetNorwaySymbol.condition("meteorshower_day")
        #expect(condition.code == -1)
        #expect(condition.text.contains("meteorshower_day"))
    }

    static let table = ZoneTable(
        tab: """
            # comment
            GB,GG,IM,JE\t+513030-0000731\tEurope/London
            ES\t+4024-00341\tEurope/Madrid
            AR\t-3436-05827\tAmerica/Argentina/Buenos_Aires\tBuenos Aires (BA, CF)
            ZA,LS,SZ\t-2615+02800\tAfrica/Johannesburg
            bad line
            """)

    @Test("the zone table reads ISO 6709 coordinates with and without seconds, skipping what it cannot read")
    func zoneTable() throws {
        #expect(
            Self.table.entries.map(\.identifier) == [
                "Europe/London", "Europe/Madrid", "America/Argentina/Buenos_Aires", "Africa/Johannesburg",
            ])
        let london = try #require(Self.table.entries.first)
        #expect(close(london.lat, 51 + 30.0 / 60 + 30.0 / 3600))
        #expect(close(london.lon, -(7.0 / 60 + 31.0 / 3600)))
        #expect(close(Self.table.entries[2].lat, -(34 + 36.0 / 60)))
    }

    @Test("a place takes the nearest principal location's zone within reach, else the longitude's nautical offset")
    func zoneOfPlace() throws {
        let july = try #require(Timestamp(rfc3339: "2026-07-01T12:00:00Z"))
        #expect(Self.table.nearest(lat: 53.48, lon: -2.24) == "Europe/London")
        let barcelona = Self.table.zone(lat: 41.39, lon: 2.17, at: july)
        #expect(barcelona.timezone == "Europe/Madrid")
        #expect(barcelona.utcOffsetSeconds == 7200)
        let durban = Self.table.zone(lat: -29.86, lon: 31.02, at: july)
        #expect(durban.timezone == "Africa/Johannesburg")
        #expect(durban.utcOffsetSeconds == 7200)
        // Mid-Pacific: nothing within reach, so the nautical offset of 150° W.
        #expect(Self.table.nearest(lat: 0, lon: -150) == nil)
        let pacific = Self.table.zone(lat: 0, lon: -150, at: july)
        #expect(pacific.timezone == nil)
        #expect(pacific.utcOffsetSeconds == -10 * 3600)
        let noTable = ZoneTable(entries: []).zone(lat: 51.5, lon: -0.1, at: july)
        #expect(noTable.timezone == nil)
        #expect(noTable.utcOffsetSeconds == 0)
        #expect(ZoneTable.nauticalOffsetSeconds(lon: 116.4) == 8 * 3600)
    }
}
