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

    @Test("impossible values make the answer a bad_upstream_response; real ones pass")
    func ranges() throws {
        try ReportCheck.check(Self.current(), provider: "x")
        try ReportCheck.check(Self.current(humidity: nil), provider: "x")
        for bad in [
            Self.current(humidity: 101), Self.current(offset: 90_000), Self.current(lat: 91),
            Self.current(humidity: .nan),
        ] {
            #expect(throws: ProviderError.self) { try ReportCheck.check(bad, provider: "x") }
        }
        let forecast = ForecastReport(
            place: Self.place, timezone: nil, utcOffsetSeconds: 0,
            entries: [ForecastEntry(time: Timestamp(milliseconds: 0), temperature: 5, pop: 1.5, condition: .wmo(0))],
            daily: [])
        do {
            try ReportCheck.check(forecast, provider: "x")
            Issue.record("pop 1.5 was accepted")
        } catch {
            #expect(error.kind == .badUpstreamResponse)
        }
    }
}
