import Testing
import WeatherService
import WeatherTesting

@Suite("Prometheus exposition: the text format, family by family")
struct ExpositionTests {
    @Test("gauges, counters and a histogram read back as written: one HELP and TYPE each, escaped labels")
    func roundTrip() throws {
        var exposition = Exposition()
        exposition.family(
            "weatherd_temperature_celsius", .gauge, help: "The temperature now.\nIn °C, a back\\slash.",
            [.init([("place", "Zürich \"Altstadt\"\nline two"), ("provider", "open-meteo")], -3.25)])
        exposition.family(
            "weatherd_alerts_raised_total", .counter, help: "Alerts raised.",
            [.init([("rule", "temp_drop")], 3), .init([("rule", "official")], 0)])
        exposition.histogram(
            "weatherd_upstream_request_duration_seconds", help: "Upstream call durations.",
            [.init([("provider", "open-meteo")], buckets: [(0.1, 2), (0.5, 5), (2.5, 6)], sum: 3.75, count: 7)])
        exposition.family("weatherd_build_info", .gauge, help: "The build.", [.init([("version", "1.2.0")], 1)])
        let text = exposition.text
        #expect(text.hasSuffix("\n"))
        let families = try ExpositionParser.parse(text)
        #expect(families.count == 4)
        let temperature = try #require(families["weatherd_temperature_celsius"])
        #expect(temperature.type == "gauge")
        #expect(temperature.help == "The temperature now.\nIn °C, a back\\slash.")
        #expect(temperature.samples.first?.labels["place"] == "Zürich \"Altstadt\"\nline two")
        #expect(temperature.samples.first?.value == -3.25)
        #expect(families["weatherd_alerts_raised_total"]?.samples.map(\.value) == [3, 0])
        let histogram = try #require(families["weatherd_upstream_request_duration_seconds"])
        #expect(histogram.samples.map(\.name).filter { $0.hasSuffix("_bucket") }.count == 4)
        #expect(histogram.samples.first { $0.labels["le"] == "+Inf" }?.value == 7)
        #expect(histogram.samples.first { $0.name.hasSuffix("_sum") }?.value == 3.75)
        #expect(
            text.contains("weatherd_upstream_request_duration_seconds_bucket{provider=\"open-meteo\",le=\"0.1\"} 2\n"))
        #expect(text.contains("weatherd_alerts_raised_total{rule=\"temp_drop\"} 3\n"), "whole numbers have no fraction")
    }

    @Test("the parser refuses what a scraper refuses")
    func parserRefuses() {
        for bad in [
            "x 1\n", "# TYPE x gauge\n# TYPE x gauge\nx 1\n", "# TYPE x gauge\nx 1\nx 1\n", "# TYPE x gauge\nx one\n",
            "# TYPE x gauge\nx{a=\"1\\q\"} 1\n", "# TYPE x gauge\nx 1",
        ] {
            #expect(throws: ExpositionParser.Problem.self, "\(bad.debugDescription)") {
                try ExpositionParser.parse(bad)
            }
        }
    }

    @Test("values as the format writes them")
    func numbers() {
        #expect(Exposition.number(3) == "3")
        #expect(Exposition.number(-0.5) == "-0.5")
        #expect(Exposition.number(.infinity) == "+Inf")
        #expect(Exposition.number(-.infinity) == "-Inf")
        #expect(Exposition.number(.nan) == "NaN")
        #expect(Exposition.number(1e20) == "1e+20")
    }
}
