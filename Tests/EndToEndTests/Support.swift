import Foundation
import WeatherDomain
import WeatherTesting

/// Paths and tools shared by the end-to-end tests.
enum Repository {
    /// The repository's root directory.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The independent checker of the log format, with the repository's event schemas.
    static let logCheck: LogCheck = {
        do {
            return try LogCheck(schemasDirectory: root.appendingPathComponent("Events/schemas").path)
        } catch {
            fatalError("cannot load Events/schemas: \(error)")
        }
    }()

    /// Checks a data dir's whole log with the independent checker and every event against its schema.
    ///
    /// - Throws: `LogCheck.Problem` naming the first problem, its file, offset and seq.
    @discardableResult
    static func checkLog(_ directory: String) throws -> LogCheck.Summary {
        try logCheck.check(dataDirectory: directory)
    }
}

/// The lines of a data dir's log, decoded.
func logEvents(_ directory: TemporaryDataDirectory) throws -> [JSONValue] {
    try directory.logBytes().split(separator: UInt8(ascii: "\n")).map { try JSONValue.parse($0) }
}

/// Starts weatherd alone (`--standalone`: the engine in the client's process) on a data dir with extra
/// arguments. The shared daemon's own tests start clients with `SharedDataDir`.
func startWeatherd(_ directory: TemporaryDataDirectory, _ extra: [String] = []) throws -> RunningWeatherd {
    try RunningWeatherd(
        arguments: ["--standalone", "--data-dir", directory.path, "--log-level", "warning"] + quietTimers + extra)
}

/// The binary's real-time timers off (the scheduled refresh, the official warnings' interval and the daily
/// summary's check): a run
/// slowed down by a busy machine must not see a timer fire that a fast one does not, and the verdict of an
/// end-to-end test never depends on them. Their behaviour is tested on the manual clock; a test that
/// wants one passes its own flag after these.
let quietTimers = [
    "--warnings-interval", "0", "--refresh-interval", "0", "--summary-check-interval", "0", "--nowcast-check-interval",
    "0",
]

/// Adds favorites `P<i>` at latitude `i` for each index, one request at a time.
func addFavorites(_ weatherd: RunningWeatherd, _ indices: Range<Int>) async throws {
    for index in indices {
        _ = try await weatherd.call(
            "favorites/add", ["name": .string("P\(index)"), "lat": .int(Int64(index)), "lon": 0])
    }
}

/// A data dir holding `count` favorites written by the real binary, which has exited cleanly.
func populatedDataDirectory(favorites count: Int) async throws -> TemporaryDataDirectory {
    let directory = TemporaryDataDirectory()
    let weatherd = try startWeatherd(directory)
    try await addFavorites(weatherd, 0..<count)
    try weatherd.closeInput()
    let status = await weatherd.waitForExit()
    guard status == 0 else {
        throw RunningWeatherdError(
            "weatherd did not exit cleanly (status \(status.map(String.init) ?? "none: still running")): "
                + weatherd.standardError)
    }
    return directory
}
