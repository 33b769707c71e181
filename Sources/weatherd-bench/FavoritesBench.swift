import EventLog
import Foundation
import WeatherDomain
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The cost of each favorites operation with `count` favorites already there (written as a log, replayed at
/// start-up): serial and pipelined adds, renames, removals, `favorites/list` with `limit: 20`, and the 100 m
/// proximity check alone (an add at a taken place, refused before anything is written). The service runs with
/// `--fsync never` and `--snapshot-every 0`, so the figures are weatherd's own work per operation, not the
/// disk's `fdatasync` (the `append` and `group` benches measure that) nor the periodic snapshot, whose cost
/// follows the state's size (`startup` measures that).
func favorites(binary: String, dir: String, count: Int, operations: Int) throws -> JSONValue {
    let dataDir = dir + "/favorites-\(count)"
    try writeFavorites(count, to: dataDir)
    let child = try Child(
        binary: binary, dataDir: dataDir,
        extra: ["--max-favorites", "10000000", "--fsync", "never", "--snapshot-every", "0"])
    defer { child.stop() }
    child.send(request(0, "service/status", "{}"))
    child.readLines(1)
    var id = 1
    /// Mean microseconds of `operations` requests sent one at a time, each answered before the next.
    func serial(_ params: (Int) -> (String, String)) -> Double {
        let lines = (0..<operations).map { index -> [UInt8] in
            let (method, body) = params(index)
            id += 1
            return request(id, method, body)
        }
        let elapsed = seconds {
            for line in lines {
                child.send(line)
                child.readLines(1)
            }
        }
        return (elapsed / Double(operations) * 1e6).rounded()
    }
    // New places go south of every generated one (those stay north of -80°).
    func place(_ index: Int) -> String {
        "\"lat\":\(-85 + Double(index / 1000) * 0.01),\"lon\":\(Double(index % 1000) * 0.01 - 5)"
    }
    let add = serial { ("favorites/add", #"{"name":"Bench \#($0)",\#(place($0))}"#) }
    let pipelinedCount = operations * 10
    let batch = (0..<pipelinedCount).flatMap { index -> [UInt8] in
        id += 1
        return request(id, "favorites/add", #"{"name":"Piped \#(index)",\#(place(operations + index))}"#)
    }
    let pipelined = seconds {
        child.send(batch)
        child.readLines(pipelinedCount)
    }
    let rename = serial { ("favorites/update", #"{"id":"fav-\#($0 % count + 1)","name":"Renamed \#($0)"}"#) }
    let list = serial { _ in ("favorites/list", #"{"limit":20}"#) }
    let proximity = serial { index in
        let taken = FavoritesBenchLayout.position(index % count)
        return ("favorites/add", #"{"name":"Again","lat":\#(taken.lat),"lon":\#(taken.lon)}"#)
    }
    let remove = serial { ("favorites/remove", #"{"id":"fav-\#(count + 1 + $0)"}"#) }
    return .object([
        "bench": "favorites", "favorites": .int(Int64(count)),
        "serialAddMicroseconds": .double(add),
        "pipelinedAddsPerSecond": .double((Double(pipelinedCount) / pipelined).rounded()),
        "renameMicroseconds": .double(rename), "removeMicroseconds": .double(remove),
        "list20Microseconds": .double(list), "proximityCheckMicroseconds": .double(proximity),
    ])
}

/// The figures at the largest count over those at the smallest: about 1 is the target.
func favoritesRatios(_ small: JSONValue, _ large: JSONValue) -> JSONValue {
    var ratios: [String: JSONValue] = [
        "bench": "favorites-ratio",
        "target": "about 1 (the same cost at any count)",
    ]
    ratios["counts"] = .array([small["favorites"] ?? .null, large["favorites"] ?? .null])
    for key in [
        "serialAddMicroseconds", "renameMicroseconds", "removeMicroseconds", "list20Microseconds",
        "proximityCheckMicroseconds",
    ] {
        guard let a = small[key]?.doubleValue, let b = large[key]?.doubleValue, a > 0 else { continue }
        ratios[key] = .double(Rounding.round(b / a, decimals: 2))
    }
    if let a = small["pipelinedAddsPerSecond"]?.doubleValue, let b = large["pipelinedAddsPerSecond"]?.doubleValue,
        b > 0
    {
        ratios["pipelinedAddTime"] = .double(Rounding.round(a / b, decimals: 2))
    }
    return .object(ratios)
}

/// Where the generated favorites stand: 1,000 per row, 0.35° apart in longitude, rows 0.16° apart.
enum FavoritesBenchLayout {
    static func position(_ index: Int) -> (lat: Double, lon: Double) {
        (lat: -80 + Double(index / 1000) * 0.16, lon: -179 + Double(index % 1000) * 0.35)
    }
}

/// Writes a log of `count` `favorite.added` events, `fav-1` … `fav-<count>`.
func writeFavorites(_ count: Int, to directory: String) throws {
    try? FileManager.default.removeItem(atPath: directory)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let fd = open(directory + "/events.jsonl", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    defer { close(fd) }
    var buffer: [UInt8] = []
    var chain: UInt32 = 0
    let ts = Timestamp(milliseconds: 1_795_000_000_000)
    for index in 0..<count {
        let position = FavoritesBenchLayout.position(index)
        let favorite = Favorite(
            id: "fav-\(index + 1)", name: "Place \(index + 1)", country: nil, lat: position.lat, lon: position.lon,
            addedAt: ts, notify: true)
        let event = NewEvent(.favoriteAdded(favorite), cause: "rpc:\(index)", corr: nil)
        chain =
            EnvelopeCodec.encode(seq: Int64(index + 1), ts: ts, event: event, previousChain: chain, into: &buffer)
            .chain
        if buffer.count >= 1 << 22 || index == count - 1 {
            if let code = Descriptor.writeAll(fd, buffer) { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO) }
            buffer.removeAll(keepingCapacity: true)
        }
    }
}
