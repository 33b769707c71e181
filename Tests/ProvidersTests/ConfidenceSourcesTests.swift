import Providers
import Testing
import WeatherDomain
import WeatherTesting

/// Open-Meteo's Ensemble API and its multi-model forecast, from generated bodies in their documented shapes; MET
/// Norway's own percentiles, from a recorded body.
@Suite("The sources of a forecast's spread: Open-Meteo's ensembles and models, MET Norway's percentiles")
struct ConfidenceSourcesTests {
    /// Berlin's local midnight of 2026-11-22 (UTC+1), in unix seconds.
    static let midnight: Int64 = 1_795_302_000

    /// An Ensemble API answer for one model (`OpenMeteoBodies.ensemble`): member `m` is `m` + hour of day / 4 °C
    /// until `reach(m)` hours (nulls after), member 3 is null at hour 5, and the even members have 0.3 mm at 14:00.
    static func ensembleBody(members: Int, days: Int, reach: @escaping (Int) -> Int = { _ in .max }) -> [UInt8] {
        OpenMeteoBodies.ensemble(
            start: Timestamp(milliseconds: midnight * 1000), members: members, days: days,
            temperature: { member, hour in
                hour < reach(member) && !(member == 3 && hour == 5) ? Double(member) + Double(hour % 24) / 4 : nil
            },
            precipitation: { member, hour in
                hour < reach(member) ? (member % 2 == 0 && hour % 24 == 14 ? 0.3 : 0) : nil
            })
    }

    let ensemble = OpenMeteoEnsemble(baseURL: "http://ensemble.test/")

    @Test("the request: /v1/ensemble, one model, hourly temperature and precipitation, 16 days, local midnights")
    func request() {
        let request = ensemble.request(lat: 52.52, lon: 13.41, model: "ecmwf_ifs025")
        #expect(
            request.url
                == "http://ensemble.test/v1/ensemble?latitude=52.52&longitude=13.41&models=ecmwf_ifs025"
                + "&hourly=temperature_2m,precipitation&forecast_days=16&timezone=auto&timeformat=unixtime")
        #expect(request.auditURL == request.url)
        #expect(OpenMeteoEnsemble.defaultModel == "ecmwf_ifs025")
    }

    @Test("the control run and every _memberNN are members; nulls past a member's horizon and at a step are left out")
    func members() throws {
        let body = Self.ensembleBody(members: 50, days: 16) { member in member % 10 == 7 ? 10 * 24 : 15 * 24 }
        let now = Timestamp(milliseconds: Self.midnight * 1000)
        let summary = try ensemble.decode(body, model: "ecmwf_ifs025", now: now)
        #expect(summary.model == "ecmwf_ifs025" && summary.method == .members)
        #expect(summary.members == 51, "the control run and 50 members")
        #expect(summary.timezone == "Europe/Berlin" && summary.utcOffsetSeconds == 3600)
        #expect(summary.days.count == 15, "the 16th day is past every member's horizon")
        #expect(summary.days.first?.date == "2026-11-22")
        #expect(summary.days[9].members == 51 && summary.days[10].members == 46, "five members reach 10 days")
        // Day 1 directly: member m's high is m + 23/4, its low m; the members are 0…50.
        let highs = (0...50).map { Double($0) + 23.0 / 4 }
        #expect(summary.days[0].high.p50 == 25 + 23.0 / 4)
        #expect(abs((summary.days[0].high.p10 ?? .nan) - (highs[5] * 1.0)) < 1e-9, "rank 5 of 51")
        #expect(summary.days[0].wet == Double(26) / Double(51), "the even members are wet (0.3 mm)")
        let five = try #require(summary.hours.first { $0.time.milliseconds == (Self.midnight + 5 * 3600) * 1000 })
        #expect(five.members == 50, "member 3 is null at 05:00")
        #expect(summary.hours.first?.members == 51)
    }

    @Test(
        "a one-member answer (the control run alone) reads; one without any temperature, a wrong unit, an error do not")
    func refusals() throws {
        let one = try ensemble.decode(
            Self.ensembleBody(members: 0, days: 2), model: "m", now: Timestamp(milliseconds: 0))
        #expect(one.members == 1 && one.days.count == 2)
        #expect(one.days[0].high == Spread(p10: 5.75, p25: 5.75, p50: 5.75, p75: 5.75, p90: 5.75))
        let empty: JSONValue = [
            "utc_offset_seconds": 0, "hourly": ["time": [1_795_302_000], "temperature_2m": [.null]],
        ]
        #expect(
            failure { () throws(ProviderError) in
                _ = try ensemble.decode(empty.jsonBytes, model: "m", now: Timestamp(milliseconds: 0))
            }?.kind
                == .badUpstreamResponse)
        guard case .object(var fahrenheit) = try JSONValue.parse(Self.ensembleBody(members: 2, days: 1)) else { return }
        fahrenheit["hourly_units"] = ["temperature_2m": "°F"]
        let wrongUnit = failure { () throws(ProviderError) in
            _ = try ensemble.decode(JSONValue.object(fahrenheit).jsonBytes, model: "m", now: Timestamp(milliseconds: 0))
        }
        #expect(wrongUnit?.kind == .badUpstreamResponse)
        #expect(wrongUnit?.message.contains("°F") == true)
        let error = failure { () throws(ProviderError) in
            _ = try ensemble.decode(
                Array(#"{"error":true,"reason":"No data is available for this location"}"#.utf8),
                model: "m", now: Timestamp(milliseconds: 0))
        }
        #expect(error?.message.contains("No data is available") == true)
    }

    let models = OpenMeteoModels(baseURL: "http://weather.test")

    @Test("models: each asked model's suffixed columns; a model absent, or null in a field, reads as missing")
    func modelColumns() throws {
        let request = models.request(lat: 52.52, lon: 13.41, models: ["ecmwf_ifs025", "gfs_seamless"])
        #expect(request.url.hasPrefix("http://weather.test/v1/forecast?latitude=52.52&longitude=13.41&daily="))
        #expect(request.url.contains("&models=ecmwf_ifs025,gfs_seamless&"))
        #expect(!request.url.contains("best_match"))
        let times: [JSONValue] = [.int(Self.midnight), .int(Self.midnight + 86_400)]
        let body: JSONValue = [
            "utc_offset_seconds": 3600, "timezone": "Europe/Berlin",
            "daily_units": ["temperature_2m_max_ecmwf_ifs025": "°C", "precipitation_sum_gfs_seamless": "mm"],
            "daily": [
                "time": .array(times),
                "temperature_2m_max_ecmwf_ifs025": [8.1, 6.5], "temperature_2m_min_ecmwf_ifs025": [1.2, -0.4],
                "precipitation_sum_ecmwf_ifs025": [0.6, 0], "weather_code_ecmwf_ifs025": [61, 3],
                "temperature_2m_max_gfs_seamless": [9.0, .null], "temperature_2m_min_gfs_seamless": [2.0, .null],
                "precipitation_sum_gfs_seamless": [1.1, .null],
            ],
        ]
        let page = try models.decode(body.jsonBytes, models: ["ecmwf_ifs025", "gfs_seamless", "ukmo_seamless"])
        #expect(page.dates == ["2026-11-22", "2026-11-23"])
        #expect(
            page.runs[0][0]
                == ModelDay(date: "2026-11-22", high: 8.1, low: 1.2, precipitation: 0.6, condition: .wmo(61)))
        #expect(page.runs[1][1].isEmpty && !page.runs[1][0].isEmpty)
        #expect(page.runs[2].allSatisfy { $0.isEmpty }, "ukmo_seamless has no column: missing")
        let compared = ModelComparison.days(page)
        #expect(compared[1].missing == ["gfs_seamless", "ukmo_seamless"])
        let inches: JSONValue = [
            "utc_offset_seconds": 0, "daily_units": ["precipitation_sum_gfs_seamless": "inch"],
            "daily": ["time": .array(times)],
        ]
        #expect(
            failure { () throws(ProviderError) in
                _ = try models.decode(inches.jsonBytes, models: ["ecmwf_ifs025", "gfs_seamless"])
            } != nil)
    }

    @Test(
        "MET Norway's percentiles come with its forecast: each day's band from its steps' 10th and 90th, as in the body"
    )
    func metNorway() throws {
        let zones = ZoneTable(tab: "NO,SJ\t+5955+01045\tEurope/Oslo\n")
        let provider = MetNorwayProvider(
            userAgent: UserAgent.weatherd(contact: "ops@example.org", version: "1.2.3"), baseURL: "http://met.test",
            zones: zones)
        let body = try Fixture.bytes("metno-locationforecast-complete-59n10e-alt63-20220518")
        let place = Place(name: nil, country: nil, state: nil, lat: 59, lon: 10)
        let start = try #require(Timestamp(rfc3339: "2022-05-18T21:00:00Z"))
        let summary = try #require(try provider.decodeForecast(body, place: place).spread, "read with the forecast")
        #expect(summary.model == "met-norway" && summary.method == .percentiles && summary.members == nil)
        #expect(summary.timezone == "Europe/Oslo" && summary.utcOffsetSeconds == 7200)
        // The body read directly: each step's percentiles and the precipitation of the hours to the next step.
        let series = try #require(try JSONValue.parse(body)["properties"]?["timeseries"]?.arrayValue)
        var byDate:
            [String: [(quarter: Int64, p10: Double, p90: Double, min: Double?, max: Double?, chance: Double?)]] = [:]
        var order: [String] = []
        for (index, item) in series.enumerated() {
            let time = try #require(item["time"]?.stringValue.flatMap(Timestamp.init(rfc3339:)))
            let next =
                index + 1 < series.count
                ? try #require(series[index + 1]["time"]?.stringValue.flatMap(Timestamp.init(rfc3339:))) : nil
            let hours = next.map { ($0.milliseconds - time.milliseconds) / 3_600_000 } ?? 1
            let details = item["data"]?["instant"]?["details"]
            let period = item["data"]?["next_\(hours)_hours"]?["details"]
            guard let p10 = details?["air_temperature_percentile_10"]?.doubleValue,
                let p90 = details?["air_temperature_percentile_90"]?.doubleValue
            else { continue }
            let local = time.milliseconds + 7_200_000
            let date = LocalDate.string(time, zone: .fixed(7200))
            if byDate[date] == nil { order.append(date) }
            byDate[date, default: []].append(
                (
                    local % 86_400_000 / 21_600_000, p10, p90, period?["precipitation_amount_min"]?.doubleValue,
                    period?["precipitation_amount_max"]?.doubleValue,
                    period?["probability_of_precipitation"]?.doubleValue.map { $0 / 100 }
                ))
        }
        let expected = order.filter { Set((byDate[$0] ?? []).map(\.quarter)).count == 4 }
        #expect(summary.days.map(\.date) == expected, "the first evening and the last partial day are left out")
        #expect(summary.days.count >= 7)
        for day in summary.days {
            let steps = try #require(byDate[day.date])
            #expect(day.high == Spread(p10: steps.map(\.p10).max(), p90: steps.map(\.p90).max()), "\(day.date)")
            #expect(day.low == Spread(p10: steps.map(\.p10).min(), p90: steps.map(\.p90).min()), "\(day.date)")
            #expect(day.wet == steps.compactMap(\.chance).max(), "\(day.date)")
            let amounts = steps.filter { $0.min != nil && $0.max != nil }
            if Set(amounts.map(\.quarter)).count == 4 {
                #expect(close(day.precipitation?.p10, amounts.compactMap(\.min).reduce(0, +)))
                #expect(close(day.precipitation?.p90, amounts.compactMap(\.max).reduce(0, +)))
            }
        }
        #expect(summary.hours.first?.time == start)
        #expect(summary.hours.first?.temperature == Spread(p10: 11.4, p90: 13.1), "the first step as recorded")
        #expect(close(summary.hours.first?.wet, 0.003), "0.3 % in its next hour")
    }
}
