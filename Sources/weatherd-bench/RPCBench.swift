import Foundation
import WeatherDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Pipelined read-only requests (at most `window` unanswered, the client reading while it writes), and the
/// serial round trip's p50 and p99.
func rpc(binary: String, dir: String, count: Int, window: Int) throws -> JSONValue {
    let child = try Child(binary: binary, dataDir: dir + "/rpc-\(getpid())")
    let lines = (0..<count).map { request($0, $0 % 2 == 0 ? "favorites/list" : "settings/get", "{}") }
    let pipelined = seconds { child.pipeline(lines, window: window) }
    var samples: [Double] = []
    for index in 0..<2000 {
        let line = request(count + index, "settings/get", "{}")
        samples.append(
            seconds {
                child.send(line)
                child.readLines(1)
            })
    }
    child.stop()
    samples.sort()
    return .object([
        "bench": "rpc", "pipelinedRequestsPerSecond": .double((Double(count) / pipelined).rounded()),
        "target": ">= 100000", "window": .int(Int64(window)),
        "serialP50Microseconds": .double((samples[samples.count / 2] * 1e6).rounded()),
        "serialP99Microseconds": .double((samples[samples.count * 99 / 100] * 1e6).rounded()),
    ])
}
