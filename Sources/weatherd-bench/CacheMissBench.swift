import Foundation
import WeatherDomain
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a `weather/current` that misses the cache costs, under `--fsync always`, against a stand-in provider in
/// this process (`LocalHTTPServer` on 127.0.0.1, one connection per call, as weatherd makes them):
///
/// - by city: a city never asked before, so weatherd calls the geocoder, records the place in the search
///   history and calls for the weather (`maxAgeSeconds: 0`, so the two places the cities alternate between are
///   never answered from the cache): three events, `geocode.fetched`, `history.recorded`, `weather.fetched`;
/// - by coordinates, `maxAgeSeconds: 0`: one call and one event, the floor of a request that fetches.
///
/// Each request is answered before the next is sent. Besides the rate and the round trip's p50 and p99, it reports
/// the fsyncs and log batches per request, read from `service/status` before and after, and what one `write` and
/// `fdatasync` of a 300-byte line takes on the same file system in the same run (the raw loop of `durable`).
func cacheMiss(binary: String, dir: String, count: Int) throws -> JSONValue {
    let rawPath = dir + "/miss-raw-\(getpid()).log"
    defer { unlink(rawPath) }
    let raw = try rawWriteSync(path: rawPath, count: min(count, 1000), lineBytes: 300).samples.sorted()
    let stand = try LocalHTTPServer()
    defer { stand.stop() }
    stand.route(
        "/v1/search", query: "name=north", .init(body: OpenMeteoBodies.geocode([("North", "NO", nil, 60.1, 10.1)])))
    stand.route(
        "/v1/search", query: "name=south", .init(body: OpenMeteoBodies.geocode([("South", "ES", nil, 40.2, -3.2)])))
    let now = Timestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000) / 60_000 * 60_000)
    stand.route("/v1/forecast", .init(body: OpenMeteoBodies.current(temperature: 5, time: now)))
    let child = try Child(
        binary: binary, dataDir: dir + "/miss-\(getpid())",
        extra: [
            "--fsync", "always", "--snapshot-every", "0", "--rate-limit", "100000", "--warnings-interval", "0",
            "--open-meteo-base-url", stand.baseURL, "--open-meteo-geocoding-base-url", stand.baseURL,
        ])
    defer { child.stop() }
    var id = 0
    func next(_ params: String) -> [UInt8] {
        id += 1
        return request(id, "weather/current", params)
    }
    func city() -> [UInt8] { next(#"{"city":"\#(id % 2 == 0 ? "north" : "south")\#(id)","maxAgeSeconds":0}"#) }
    func point() -> [UInt8] {
        next(
            id % 2 == 0 ? #"{"lat":60.1,"lon":10.1,"maxAgeSeconds":0}"# : #"{"lat":40.2,"lon":-3.2,"maxAgeSeconds":0}"#)
    }
    for line in [city(), point()] {
        child.send(line)
        let answer = try JSONValue.parse(child.readLine())
        guard answer["result"]?["current"] != nil else { throw BenchError("weather/current failed: \(answer)") }
    }
    _ = roundTrips(child, (0..<20).map { _ in city() })
    var figures: [String: JSONValue] = ["bench": "cacheMiss", "fsync": "always", "count": .int(Int64(count))]
    for (name, lines) in [
        ("byCity", (0..<count).map { _ in city() }), ("byCoordinates", (0..<count).map { _ in point() }),
    ] {
        let before = try logCounters(child, id: &id)
        let run = roundTrips(child, lines)
        let after = try logCounters(child, id: &id)
        let perRequest = run.seconds / Double(count)
        figures[name] = .object([
            "perSecond": .double((1 / perRequest).rounded()),
            "p50Microseconds": .double((run.samples[run.samples.count / 2] * 1e6).rounded()),
            "p99Microseconds": .double((run.samples[run.samples.count * 99 / 100] * 1e6).rounded()),
            "syncsPerRequest": .double(Rounding.round(Double(after.syncs - before.syncs) / Double(count), decimals: 2)),
            "batchesPerRequest": .double(
                Rounding.round(Double(after.batches - before.batches) / Double(count), decimals: 2)),
            "eventsPerRequest": .double(
                Rounding.round(Double(after.lastSeq - before.lastSeq) / Double(count), decimals: 2)),
        ])
    }
    figures["rawFsyncP50Microseconds"] = .double((raw[raw.count / 2] * 1e6).rounded())
    figures["target"] = "byCity: one fsync a request"
    return .object(figures)
}

/// The log's counters from `service/status`: fsyncs, batches and the last seq.
private func logCounters(_ child: Child, id: inout Int) throws -> (syncs: Int64, batches: Int64, lastSeq: Int64) {
    id += 1
    child.send(request(id, "service/status", "{}"))
    let status = try JSONValue.parse(child.readLine())
    guard let syncs = status["result"]?["syncs"]?.intValue, let batches = status["result"]?["batches"]?.intValue,
        let lastSeq = status["result"]?["lastSeq"]?.intValue
    else { throw BenchError("service/status without its log counters: \(status)") }
    return (syncs, batches, lastSeq)
}
