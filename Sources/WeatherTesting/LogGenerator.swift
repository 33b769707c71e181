import EventLog
import Foundation
import Providers
import WeatherDomain
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes synthetic but valid logs: real envelopes (seq, chain, crc) around real domain events.
///
/// The small mix cycles through favorites (add, rename, remove, keeping at most 200), history, settings
/// and location; the realistic mix makes every tenth event a `weather.fetched` 5-day forecast (40 steps,
/// 5 days) for one of 50 places, so later fetches supersede earlier ones as they do in a real log.
package struct LogGenerator {
    package enum Mix: String, Sendable {
        /// Favorites, history, settings and location changes.
        case small
        /// As `small`, with every tenth event a 5-day forecast for one of 50 places.
        case mixed
        /// A dashboard of 50 places: every event a 5-day forecast, each place in turn (a 10-minute refresh
        /// of all 50 is an event every 12 s).
        case dashboard
    }

    let mix: Mix
    private var favoritesAdded = 0
    private var live: [Favorite] = []
    private var clock: Timestamp
    private let step: Int64

    /// A generator whose first event is written at `start` plus `step` milliseconds, each next one `step` later.
    package init(mix: Mix, start: Timestamp = Timestamp(milliseconds: 1_795_000_000_000), step: Int64 = 1_000) {
        self.mix = mix
        clock = start
        self.step = step
    }

    /// Writes `count` events to `DIR/events.jsonl` (the directory is created) and returns the log's size.
    ///
    /// With `segmentBytes`, the log rolls over as the writer's does: before a line that would take the active file
    /// past that size, it is renamed to its segment name.
    @discardableResult
    package static func write(
        mix: Mix, count: Int, to directory: String, segmentBytes: Int64 = .max,
        start: Timestamp = Timestamp(milliseconds: 1_795_000_000_000), step: Int64 = 1_000
    ) throws -> Int64 {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/events.jsonl"
        var fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        var generator = LogGenerator(mix: mix, start: start, step: step)
        var line: [UInt8] = []
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 22)
        var chain: UInt32 = 0
        var size: Int64 = 0
        var fileLength: Int64 = 0
        var fileFirstSeq: Int64 = 1
        func flush() throws {
            if let code = Descriptor.writeAll(fd, buffer) { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO) }
            buffer.removeAll(keepingCapacity: true)
        }
        for seq in 1...Int64(count) {
            let event = generator.next(seq: seq)
            line.removeAll(keepingCapacity: true)
            chain =
                EnvelopeCodec.encode(seq: seq, ts: generator.clock, event: event, previousChain: chain, into: &line)
                .chain
            if fileLength > 0, fileLength + Int64(line.count) > segmentBytes {
                try flush()
                close(fd)
                guard rename(path, directory + "/" + LogFiles.segmentName(fileFirstSeq)) == 0 else {
                    throw POSIXError(.EIO)
                }
                fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
                guard fd >= 0 else { throw POSIXError(.EIO) }
                fileLength = 0
                fileFirstSeq = seq
            }
            buffer.append(contentsOf: line)
            fileLength += Int64(line.count)
            size += Int64(line.count)
            if buffer.count >= 1 << 22 { try flush() }
        }
        try flush()
        return size
    }

    /// The next event, for seq `seq`; its time is `clock` afterwards.
    package mutating func next(seq: Int64) -> NewEvent {
        clock = Timestamp(milliseconds: clock.milliseconds + step)
        if mix == .dashboard {
            return NewEvent(.weatherFetched(forecast(place: Int(seq) % 50)), cause: "timer:refresh", corr: nil)
        }
        if mix == .mixed, seq % 10 == 0 {
            return NewEvent(.weatherFetched(forecast(place: Int(seq / 10) % 50)), cause: "timer:refresh", corr: nil)
        }
        let corr = "c-\(seq)"
        switch seq % 7 {
        case 0, 1:
            if live.count >= 200 {
                let removed = live.removeFirst()
                return NewEvent(.favoriteRemoved(removed), cause: "rpc:\(seq)", corr: corr)
            }
            favoritesAdded += 1
            let favorite = Favorite(
                id: "fav-\(favoritesAdded)", name: "Place \(favoritesAdded)", country: "DE",
                lat: Double(favoritesAdded % 1_700) / 10 - 85, lon: Double(favoritesAdded % 3_500) / 10 - 175,
                addedAt: clock, notify: true)
            live.append(favorite)
            return NewEvent(.favoriteAdded(favorite), cause: "rpc:\(seq)", corr: corr)
        case 2 where !live.isEmpty:
            let index = Int(seq) % live.count
            live[index].name = "Renamed \(seq)"
            return NewEvent(
                .favoriteUpdated(FavoriteUpdate(favorite: live[index], changed: ["name"])), cause: "rpc:\(seq)",
                corr: corr)
        case 3:
            let entry = HistoryEntry(
                name: "City \(seq % 40)", country: "FR", state: nil, lat: Double(seq % 80), lon: Double(seq % 170),
                searchedAt: clock)
            return NewEvent(.historyRecorded(entry), cause: "rpc:\(seq)", corr: nil)
        case 4:
            return NewEvent(
                .settingsChanged(SettingsChange(units: seq % 2 == 0 ? .metric : .imperial)), cause: "rpc:\(seq)",
                corr: corr)
        default:
            let location = Location(
                lat: Double(seq % 8_000) / 100, lon: Double(seq % 17_000) / 100, name: nil, setAt: clock,
                refresh: seq % 3 == 0)
            return NewEvent(.locationChanged(location), cause: "rpc:\(seq)", corr: corr)
        }
    }

    /// A realistic Open-Meteo forecast as weatherd logs one: 40 three-hourly and 72 hourly steps with every
    /// field Open-Meteo gives, and 16 days with their aggregates, sunrise and sunset (about 40 KB).
    package func forecast(place index: Int) -> WeatherFetched {
        let lat = Double(index) - 25.5
        let lon = Double(index * 7 % 360) - 179.5
        let place = Place(name: "Forecast \(index)", country: "NO", state: "Region \(index)", lat: lat, lon: lon)
        let start = clock.milliseconds / 10_800_000 * 10_800_000
        func step(_ number: Int, every milliseconds: Int64) -> ForecastEntry {
            let code: Int64 = [0, 2, 3, 61, 63, 71][(number + index) % 6]
            return ForecastEntry(
                time: Timestamp(milliseconds: start + Int64(number) * milliseconds),
                temperature: Double((number * 37 + index) % 300) / 10 - 5,
                feelsLike: Double((number * 31) % 280) / 10 - 7, dewPoint: Double((number * 13) % 150) / 10 - 4,
                humidity: Double(40 + number % 60), pressure: 1_000 + Double(number % 30) + 0.5,
                cloudCover: Double(number * 7 % 101), visibility: Double(10_000 + number * 130 % 20_000),
                windSpeed: Double(number % 120) / 10, windDirection: Double(number * 9 % 360),
                windGust: Double(number % 180) / 10, uvIndex: Double(number % 9) / 2,
                precipitation: Double(number % 5) / 10, pop: Double(number % 10) / 10, isDay: number % 24 < 12,
                condition: .wmo(code))
        }
        let entries = (0..<40).map { step($0, every: 10_800_000) }
        let hourly = (0..<72).map { step($0, every: 3_600_000) }
        let daily = (0..<16).map { day in
            let midnight = start / 86_400_000 * 86_400_000 + Int64(day) * 86_400_000
            return DailySummary(
                date: LocalDate.string(Timestamp(milliseconds: midnight), zone: .fixed(3_600)),
                min: -3.5 + Double(day), max: 8.25 + Double(day), precipitation: Double(day % 4 * 13) / 10,
                pop: Double(day % 10) / 10, uvIndex: Double(day % 6), condition: .wmo(61),
                sunrise: Timestamp(milliseconds: midnight + 27_000_000),
                sunset: Timestamp(milliseconds: midnight + 57_600_000))
        }
        let call = UpstreamCall(
            provider: "open-meteo",
            url: OpenMeteoProvider(baseURL: "https://api.open-meteo.com", geocodingBaseURL: "").forecastRequest(
                lat: lat, lon: lon
            ).auditURL,
            status: 200, latencyMs: 180, bytes: 28_411, attempt: 1, at: clock)
        return WeatherFetched(
            key: place.key, call: call,
            report: .forecast(
                ForecastReport(
                    place: place, timezone: "Europe/Oslo", utcOffsetSeconds: 3_600, entries: entries, hourly: hourly,
                    daily: daily)))
    }
}
