import Testing
import WeatherDomain

@Suite("Home Assistant condition names")
struct HAConditionTests {
    /// Every WMO code Open-Meteo documents, with its name by day.
    static let wmo: [(Int64, String)] = [
        (0, "sunny"), (1, "sunny"), (2, "partlycloudy"), (3, "cloudy"), (45, "fog"), (48, "fog"), (51, "rainy"),
        (53, "rainy"), (55, "rainy"), (56, "rainy"), (57, "rainy"), (61, "rainy"), (63, "rainy"), (65, "pouring"),
        (66, "rainy"), (67, "pouring"), (71, "snowy"), (73, "snowy"), (75, "snowy"), (77, "snowy"), (80, "rainy"),
        (81, "rainy"), (82, "pouring"), (85, "snowy"), (86, "snowy"), (95, "lightning-rainy"), (96, "hail"),
        (99, "hail"),
    ]

    /// Every OpenWeatherMap condition id, with its name by day.
    static let owm: [(Int64, String)] = [
        (200, "lightning-rainy"), (201, "lightning-rainy"), (202, "lightning-rainy"), (210, "lightning"),
        (211, "lightning"), (212, "lightning"), (221, "lightning"), (230, "lightning-rainy"),
        (231, "lightning-rainy"), (232, "lightning-rainy"), (300, "rainy"), (301, "rainy"), (302, "rainy"),
        (310, "rainy"), (311, "rainy"), (312, "rainy"), (313, "rainy"), (314, "pouring"), (321, "rainy"),
        (500, "rainy"), (501, "rainy"), (502, "pouring"), (503, "pouring"), (504, "pouring"), (511, "snowy-rainy"),
        (520, "rainy"), (521, "rainy"), (522, "pouring"), (531, "rainy"), (600, "snowy"), (601, "snowy"),
        (602, "snowy"), (611, "snowy-rainy"), (612, "snowy-rainy"), (613, "snowy-rainy"), (615, "snowy-rainy"),
        (616, "snowy-rainy"), (620, "snowy"), (621, "snowy"), (622, "snowy"), (701, "fog"), (711, "exceptional"),
        (721, "fog"), (731, "exceptional"), (741, "fog"), (751, "exceptional"), (761, "exceptional"),
        (762, "exceptional"), (771, "windy"), (781, "exceptional"), (800, "sunny"), (801, "partlycloudy"),
        (802, "partlycloudy"), (803, "cloudy"), (804, "cloudy"),
    ]

    static func condition(_ scheme: String, _ code: Int64) -> Condition {
        Condition(scheme: scheme, code: code, text: "")
    }

    @Test("each WMO code by day, and by night only a clear sky changes: clear-night", arguments: wmo)
    func wmoCodes(code: Int64, name: String) {
        let condition = Condition.wmo(code)
        #expect(HACondition.of(condition, isDay: true)?.rawValue == name)
        #expect(HACondition.of(condition, isDay: false)?.rawValue == (name == "sunny" ? "clear-night" : name))
    }

    @Test("each OpenWeatherMap id by day, and by night only a clear sky changes: clear-night", arguments: owm)
    func owmCodes(code: Int64, name: String) {
        let condition = Self.condition("owm", code)
        #expect(HACondition.of(condition, isDay: true)?.rawValue == name)
        #expect(HACondition.of(condition, isDay: false)?.rawValue == (name == "sunny" ? "clear-night" : name))
    }

    @Test(
        "a dry sky in a wind of 10.8 m/s or more is windy, with clouds windy-variant; wet weather keeps its name",
        arguments: [
            ("wmo", 0 as Int64, true, "windy"), ("wmo", 1, false, "windy"), ("owm", 800, false, "windy"),
            ("wmo", 2, true, "windy-variant"), ("wmo", 3, false, "windy-variant"), ("owm", 804, true, "windy-variant"),
            ("wmo", 63, true, "rainy"), ("wmo", 45, true, "fog"), ("owm", 211, true, "lightning"),
        ])
    func wind(scheme: String, code: Int64, isDay: Bool, name: String) {
        let condition = Self.condition(scheme, code)
        #expect(HACondition.of(condition, isDay: isDay, windSpeed: 10.8)?.rawValue == name)
        #expect(HACondition.of(condition, isDay: isDay, windSpeed: 25)?.rawValue == name)
        let calm = HACondition.of(condition, isDay: isDay, windSpeed: 10.7)
        #expect(calm == HACondition.of(condition, isDay: isDay), "below the threshold the wind changes nothing")
        #expect(calm != .windy && calm != .windyVariant)
    }

    @Test("a code weatherd does not know has no name rather than a guess")
    func unknown() {
        #expect(HACondition.of(Condition(scheme: "wmo", code: -1, text: "not reported"), isDay: true) == nil)
        #expect(HACondition.of(.wmo(4), isDay: true) == nil)
        #expect(HACondition.of(Self.condition("owm", 999), isDay: false, windSpeed: 30) == nil)
    }

    @Test("all fifteen of HA's names are reachable, and they are HA's spellings")
    func allFifteen() {
        var seen: Set<HACondition> = []
        for (scheme, table) in [("wmo", Self.wmo), ("owm", Self.owm)] {
            for (code, _) in table {
                for isDay in [true, false] {
                    for wind in [nil, 12.0] as [Double?] {
                        if let name = HACondition.of(Self.condition(scheme, code), isDay: isDay, windSpeed: wind) {
                            seen.insert(name)
                        }
                    }
                }
            }
        }
        #expect(seen == Set(HACondition.allCases))
        #expect(
            HACondition.allCases.map(\.rawValue).sorted() == [
                "clear-night", "cloudy", "exceptional", "fog", "hail", "lightning", "lightning-rainy", "partlycloudy",
                "pouring", "rainy", "snowy", "snowy-rainy", "sunny", "windy", "windy-variant",
            ])
    }
}
