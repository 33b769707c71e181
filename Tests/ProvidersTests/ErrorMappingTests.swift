import Providers
import Testing
import WeatherDomain

@Suite("Provider error mapping")
struct ErrorMappingTests {
    @Test(
        "errors come from the HTTP status alone",
        arguments: [
            (401, ProviderError.Kind.unauthorized), (403, .unauthorized), (404, .notFound), (429, .rateLimited),
            (500, .upstreamError), (502, .upstreamError), (503, .upstreamError), (418, .badUpstreamResponse),
        ])
    func status(code: Int, kind: ProviderError.Kind) throws {
        let error = try #require(ProviderError.from(status: code, headers: [:], provider: "openweathermap"))
        #expect(error.kind == kind)
        #expect(error.status == code)
        #expect(ProviderError.from(status: 200, headers: [:], provider: "x") == nil)
    }

    @Test("429 honours Retry-After, and only upstream errors, time-outs and offline are retried")
    func retryAfter() throws {
        let error = try #require(ProviderError.from(status: 429, headers: ["retry-after": " 120 "], provider: "x"))
        #expect(error.retryAfterSeconds == 120)
        #expect(!error.isRetryable)
        #expect(ProviderError.from(TransportError(.offline, "refused"), provider: "x").isRetryable)
        #expect(ProviderError.from(TransportError(.timeout, "slow"), provider: "x").kind == .timeout)
        #expect(ProviderError.from(status: 503, headers: [:], provider: "x")?.isRetryable == true)
    }

    @Test("a body past the limit is a bad_upstream_response that names the limit and its flag, and is not retried")
    func tooLarge() {
        let error = ProviderError.from(TransportError.tooLarge(limit: 16 << 20), provider: "open-meteo")
        #expect(error.kind == .badUpstreamResponse)
        #expect(!error.isRetryable)
        #expect(error.status == nil)
        #expect(
            error.message
                == "open-meteo's answer passed weatherd's 16 MiB limit for a response body. "
                + "Raise it with --max-body-bytes if answers this large are expected.")
    }

    @Test(
        "sizes are said in the largest of GiB, MiB and KiB that writes them whole, else in bytes",
        arguments: [
            (16 << 20, "16 MiB"), (64 << 10, "64 KiB"), (1536, "1536 bytes"), (1 << 30, "1 GiB"), (3 << 19, "1536 KiB"),
            (1, "1 byte"),
        ])
    func sizes(bytes: Int, text: String) {
        #expect(TransportError.sizeText(bytes) == text)
    }
}

@Suite("Report range check")
struct ReportCheckTests {
    static let place = Place(name: nil, country: nil, state: nil, lat: 1, lon: 2)

    static func current(humidity: Double? = 50, offset: Int64 = 0, lat: Double = 1) -> CurrentReport {
        CurrentReport(
            place: Place(name: nil, country: nil, state: nil, lat: lat, lon: 2), timezone: nil,
            utcOffsetSeconds: offset,
            current: CurrentConditions(
                observedAt: Timestamp(milliseconds: 0), temperature: 10, humidity: humidity, condition: .wmo(0)))
    }

    static func temperature(_ value: Double) -> CurrentReport {
        var report = current()
        report.current.temperature = value
        return report
    }

    @Test("an impossible core value makes the answer a bad_upstream_response; real values pass as they are")
    func ranges() throws {
        #expect(try ReportCheck.screened(Self.current(), provider: "x") == Self.current())
        #expect(try ReportCheck.screened(Self.current(humidity: nil), provider: "x") == Self.current(humidity: nil))
        for bad in [Self.current(offset: 90_000), Self.current(lat: 91), Self.temperature(120), Self.temperature(.nan)]
        {
            #expect(throws: ProviderError.self) { try ReportCheck.screened(bad, provider: "x") }
        }
    }

    @Test("an impossible secondary value is left out with a warning, once per field, and the rest answered")
    func secondary() throws {
        for humidity in [101, Double.nan] {
            let screened = try ReportCheck.screened(Self.current(humidity: humidity), provider: "x")
            #expect(screened.current.humidity == nil && screened.current.temperature == 10)
            #expect(screened.warnings == ["humidity \(humidity) is out of range: left out"])
        }
        let step = ForecastEntry(
            time: Timestamp(milliseconds: 0), temperature: 5, humidity: 80, pop: 1.5, condition: .wmo(0))
        let forecast = ForecastReport(
            place: Self.place, timezone: nil, utcOffsetSeconds: 0, entries: [step, step], daily: [])
        let screened = try ReportCheck.screened(forecast, provider: "x")
        #expect(screened.entries.allSatisfy { $0.pop == nil && $0.humidity == 80 && $0.temperature == 5 })
        #expect(screened.warnings == ["pop 1.5 is out of range: left out (2 values in all)"])
    }
}
