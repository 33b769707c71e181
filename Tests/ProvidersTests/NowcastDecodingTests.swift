import Providers
import Testing
import WeatherDomain

@Suite("Nowcast bodies: MET Norway, OpenWeatherMap minutely, Open-Meteo minutely_15")
struct NowcastDecodingTests {
    /// `name`'s fixture with `edit` applied to its JSON.
    static func edited(_ name: String, _ edit: (inout JSONValue) -> Void) throws -> [UInt8] {
        var root = try JSONValue.parse(try Fixture.bytes(name))
        edit(&root)
        return root.jsonBytes
    }

    static func set(_ value: JSONValue, at path: [String], in root: inout JSONValue) {
        guard let key = path.first else {
            root = value
            return
        }
        switch root {
        case .object(var members):
            var child = members[key] ?? .null
            set(value, at: Array(path.dropFirst()), in: &child)
            members[key] = child
            root = .object(members)
        case .array(var items):
            guard let index = Int(key), items.indices.contains(index) else { return }
            set(value, at: Array(path.dropFirst()), in: &items[index])
            root = .array(items)
        default:
            return
        }
    }

    @Test("MET Norway: 5-minute radar steps, the coverage, the kind from the first hour's symbol")
    func metNorway() throws {
        let (nowcast, coverage) = try NowcastDecoders.metNorway(
            try Fixture.bytes("metno-nowcast-complete-tromso-20230303"))
        #expect(coverage == .ok)
        #expect(nowcast.source == .metNorway)
        #expect(nowcast.resolutionMinutes == 5)
        #expect(nowcast.steps.count == 23)
        #expect(nowcast.steps.first?.time == Timestamp(rfc3339: "2023-03-03T21:05:00Z"))
        #expect(nowcast.steps.last?.time == Timestamp(rfc3339: "2023-03-03T22:55:00Z"))
        #expect(nowcast.steps.allSatisfy { $0.intensity == 0 && $0.native && $0.probability == nil })
        #expect(nowcast.kind == nil, "fair_night names no precipitation")
        let now = try #require(Timestamp(rfc3339: "2023-03-03T21:07:00Z"))
        let summary = NowcastSummary(
            nowcast.ahead(of: now, horizonMinutes: 60), resolutionMinutes: 5, now: now)
        #expect(summary.state == .dry)

        let wet = try Self.edited("metno-nowcast-complete-tromso-20230303") { root in
            for index in 4...9 {
                Self.set(
                    .double(1.5),
                    at: ["properties", "timeseries", "\(index)", "data", "instant", "details", "precipitation_rate"],
                    in: &root)
            }
            Self.set(
                "lightsnow",
                at: ["properties", "timeseries", "0", "data", "next_1_hours", "summary", "symbol_code"], in: &root)
            Self.set("no coverage", at: ["properties", "meta", "radar_coverage"], in: &root)
        }
        let (snowing, none) = try NowcastDecoders.metNorway(wet)
        #expect(none == .noCoverage)
        #expect(snowing.kind == .snow)
        let soon = NowcastSummary(snowing.ahead(of: now, horizonMinutes: 60), resolutionMinutes: 5, now: now)
        #expect(soon.state == .starting)
        #expect(soon.startsAt == Timestamp(rfc3339: "2023-03-03T21:25:00Z"))
        #expect(soon.endsAt == Timestamp(rfc3339: "2023-03-03T21:55:00Z"))
    }

    @Test("MET Norway: an unknown coverage or another rate unit is a bad body naming the member")
    func metNorwayBad() throws {
        let coverage = try Self.edited("metno-nowcast-complete-tromso-20230303") { root in
            Self.set("partial", at: ["properties", "meta", "radar_coverage"], in: &root)
        }
        let unit = try Self.edited("metno-nowcast-complete-tromso-20230303") { root in
            Self.set("in/h", at: ["properties", "meta", "units", "precipitation_rate"], in: &root)
        }
        for (body, detail) in [
            (coverage, "$.properties.meta.radar_coverage is unknown: partial"),
            (unit, "$.properties.meta.units.precipitation_rate is in/h, not mm/h"),
            (Array("<html>".utf8), "not JSON"),
        ] {
            let error = try #require(failure { () throws(ProviderError) in _ = try NowcastDecoders.metNorway(body) })
            #expect(error.kind == .badUpstreamResponse)
            #expect(error.message.contains(detail), "\(error.message)")
        }
    }

    @Test("OpenWeatherMap: 60 one-minute steps in mm/h; a body without minutely has none")
    func openWeatherMap() throws {
        let nowcast = try #require(
            try NowcastDecoders.openWeatherMap(try Fixture.bytes("owm-onecall30-nairobi-minutely")))
        #expect(nowcast.resolutionMinutes == 1)
        #expect(nowcast.steps.count == 60)
        #expect(nowcast.steps.first?.time == Timestamp(milliseconds: 1_751_874_960_000))
        #expect(nowcast.steps.last?.time == Timestamp(milliseconds: 1_751_878_500_000))
        #expect(nowcast.kind == nil, "overcast clouds")
        let raining = try Self.edited("owm-onecall30-nairobi-minutely") { root in
            Self.set(.double(0.8), at: ["minutely", "0", "precipitation"], in: &root)
            Self.set("Rain", at: ["current", "weather", "0", "main"], in: &root)
        }
        let wet = try #require(try NowcastDecoders.openWeatherMap(raining))
        #expect(wet.steps.first?.intensity == 0.8)
        #expect(wet.kind == .rain)
        #expect(try NowcastDecoders.openWeatherMap(Array(#"{"current":{}}"#.utf8)) == nil)
    }

    @Test("Open-Meteo: each amount is the 15 minutes before its label, as a rate; labelled native or not")
    func openMeteo() throws {
        let body = try Self.edited("openmeteo-forecast-minutely15-enschede-trimmed") { root in
            Self.set([0, 0.5, 0.25, 0], at: ["minutely_15", "precipitation"], in: &root)
            Self.set([0, 0.5, 0.25, 0], at: ["minutely_15", "rain"], in: &root)
        }
        let nowcast = try NowcastDecoders.openMeteo(body, native: true)
        #expect(nowcast.resolutionMinutes == 15)
        // 12:30 local at UTC+2 is 10:30 UTC; its amount covers 10:15–10:30.
        #expect(nowcast.steps.first?.time == Timestamp(rfc3339: "2026-10-03T10:15:00Z"))
        #expect(nowcast.steps.map(\.intensity) == [0, 2, 1, 0])
        #expect(nowcast.steps.allSatisfy { $0.native })
        #expect(nowcast.kind == .rain)
        let dry = try NowcastDecoders.openMeteo(
            try Fixture.bytes("openmeteo-forecast-minutely15-enschede-trimmed"), native: false)
        #expect(dry.steps.allSatisfy { !$0.native && $0.intensity == 0 })
        #expect(dry.kind == nil)
    }

    @Test(
        "Open-Meteo's 15-minute data is native in Central Europe and North America only",
        arguments: [
            (52.28, 6.87, true), (48.14, 11.58, true), (40.71, -74.01, true), (47.61, -122.33, true),
            (69.68, 18.94, false), (-1.29, 36.82, false), (35.68, 139.69, false), (51.51, -0.13, true),
            (64.15, -21.94, false),
        ])
    func native(lat: Double, lon: Double, native: Bool) {
        #expect(NowcastDecoders.openMeteoIsNative(lat: lat, lon: lon) == native)
    }
}
