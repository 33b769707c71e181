import EventLog
import Testing
import WeatherDomain
import WeatherEngine
import WeatherTesting

@Suite("weather/accuracy's readings: the current weather a fetch gives, read alone or carried by a forecast")
struct VerificationReadingsTests {
    static let key = "52.52,13.41"

    /// A fetch of `key` from `provider` at `minute` past 2026-11-29 10:00 UTC: a current fetch reading
    /// `temperature`, or a forecast of one day that carries it (or none, when `temperature` is nil).
    static func fetch(
        _ provider: String, minute: Int64, forecast: Bool, temperature: Double?
    ) -> WeatherFetched {
        let at = Timestamp(milliseconds: 1_795_946_400_000 + minute * 60_000)
        let place = Place(name: nil, country: nil, state: nil, lat: 52.52, lon: 13.41)
        let call = UpstreamCall(
            provider: provider, url: "http://test/\(provider)", status: 200, latencyMs: 5, bytes: 100, attempt: 1,
            at: at)
        let now = temperature.map { CurrentConditions(observedAt: at, temperature: $0, condition: .wmo(3)) }
        if !forecast, let now {
            let report = CurrentReport(place: place, timezone: nil, utcOffsetSeconds: 3600, current: now)
            return WeatherFetched(key: key, call: call, report: .current(report))
        }
        let day = DailySummary(date: "2026-11-30", min: 1, max: 6, condition: .wmo(3))
        var report = ForecastReport(place: place, timezone: nil, utcOffsetSeconds: 3600, entries: [], daily: [day])
        report.current = now
        return WeatherFetched(key: key, call: call, report: .forecast(report))
    }

    @Test("One Call's forecast carries a reading; MET Norway's carries none that counts; a plain forecast none")
    func carried() throws {
        let directory = TemporaryDataDirectory()
        let fetches = [
            Self.fetch("open-meteo", minute: 0, forecast: false, temperature: 4.5),
            Self.fetch("openweathermap", minute: 10, forecast: true, temperature: 5.25),
            Self.fetch("met-norway", minute: 20, forecast: true, temperature: 9.75),
            Self.fetch("open-meteo", minute: 30, forecast: true, temperature: nil),
        ]
        var log: [UInt8] = []
        var chain: UInt32 = 0
        for (index, fetched) in fetches.enumerated() {
            chain =
                EnvelopeCodec.encode(
                    seq: Int64(index + 1), ts: fetched.call.at,
                    event: NewEvent(.weatherFetched(fetched), cause: "test", corr: nil), previousChain: chain,
                    into: &log
                ).chain
        }
        try directory.writeLog(log)
        let verified = try ForecastLogScan.readAllForVerification(directory: directory.path, key: Self.key)
        #expect(verified.readings.map(\.temperature) == [4.5, 5.25])
        #expect(verified.readings.map(\.at) == [fetches[0].call.at, fetches[1].call.at])
        #expect(verified.forecasts.map(\.provider) == ["openweathermap", "met-norway", "open-meteo"])
    }
}
