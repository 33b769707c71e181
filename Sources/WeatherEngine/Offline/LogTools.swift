import EventLog
import Foundation
import WeatherDomain
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `weatherd log verify|dump|stats --data-dir DIR`: read a log without starting the service.
///
/// They take no lock and never change a byte, so they work beside a running service; a last line
/// still being written by that service (no newline yet) is not reported as damage.
package enum LogTools {
    /// The usage text, with the options `table` declares.
    package static var usage: String {
        """
        usage: weatherd log verify --data-dir DIR
               weatherd log dump   --data-dir DIR [--type TYPE]... [--after-seq N] [--since RFC3339]
               weatherd log stats  --data-dir DIR
               weatherd log compact --data-dir DIR [--retain-payloads DURATION]   (on a stopped data dir)
        Each prints JSON lines; verify exits 1 at the first problem, naming file, line, seq and offset.
        compact strips replaced weather payloads older than DURATION (default 30d; 90s, 12h, 30d or 0) from
        the sealed segments, keeping every audit fact. Whole segments are dropped (--retain-audit) only by the
        running service, which records log.truncated through its writer.

        options:
        \(table.helpLines())
        """
    }

    /// Runs a `log` subcommand and returns the exit code; output goes to `print`.
    package static func run(
        _ arguments: [String], environment: [String: String], print: (String) -> Void
    ) -> Int32 {
        guard let command = arguments.first, ["verify", "dump", "stats", "compact"].contains(command) else {
            print(usage)
            return 2
        }
        guard let options = parseOptions(arguments.dropFirst(), environment: environment, print: print) else {
            return 2
        }
        let directory = options.directory
        guard let files = logFiles(in: directory, print: print) else { return 1 }
        let live = isLocked(directory)
        switch command {
        case "verify": return verify(files, live: live, print: print)
        case "compact": return compact(directory, retainPayloads: options.retainPayloads, print: print)
        case "dump":
            return dump(
                files, types: options.types, afterSeq: options.afterSeq, since: options.since, live: live, print: print)
        default: return stats(files, live: live, print: print)
        }
    }

    /// The options after a subcommand.
    struct Options {
        var directory: String
        var types: Set<String> = []
        var afterSeq: Int64 = 0
        var since: Timestamp?
        var retainPayloads: Duration
    }

    /// The options the log tools take, declared as weatherd's are (`--data-dir` as `Configuration.table`'s).
    static let table = OptionTable<Options>([
        Option(
            flags: ["--data-dir"], environment: ["WEATHERD_DATA_DIR"], value: .path("DIR", .directory),
            help: "the data directory", defaultText: nil, get: \.directory, set: { $0.directory = $1 }),
        Option(
            flags: ["--type"], value: .text("TYPE"), help: "dump: only events of this type (given again: of these)",
            defaultText: nil, get: { $0.types.sorted().joined(separator: ",") }, set: { $0.types.insert($1) }),
        Option(
            flags: ["--after-seq"],
            value: OptionValue<Int>.integer(0...Int.max).map({ Int64($0) }, back: { Int($0) }),
            help: "dump: only events after this seq", defaultText: nil, get: \.afterSeq, set: { $0.afterSeq = $1 }),
        Option(
            flags: ["--since"],
            value: OptionValue<Timestamp>(
                placeholder: "RFC3339",
                read: { text throws(OptionRefusal) in
                    guard let time = Timestamp(rfc3339: text) else { throw OptionRefusal("must be an RFC 3339 time") }
                    return time
                }, write: \.description
            ).optional, help: "dump: only events at or after this time", defaultText: nil, get: \.since,
            set: { $0.since = $1 }),
        Option(
            flags: ["--retain-payloads"], value: .duration, help: "compact: strip replaced payloads older than this",
            defaultText: nil, get: \.retainPayloads, set: { $0.retainPayloads = $1 }),
    ])

    /// Reads the options after the subcommand; nil, once the reason is printed, for an unknown option or one
    /// without a good value.
    private static func parseOptions(
        _ arguments: ArraySlice<String>, environment: [String: String], print: (String) -> Void
    ) -> Options? {
        let directory = Configuration.defaultDataDirectory(environment)
        var options = Options(
            directory: directory, retainPayloads: Configuration(dataDirectory: directory).retainPayloads)
        do throws(OptionError) {
            let scanned = try ScannedArguments(Array(arguments), options: table.shapes)
            if let extra = scanned.positional.first { throw OptionError("unexpected argument \(extra)") }
            _ = try table.readEnvironment(environment, into: &options)
            _ = try table.read(scanned.given, into: &options)
        } catch {
            print(JSONValue.object(["ok": false, "error": .string(error.description)]).jsonString)
            return nil
        }
        return options
    }

    /// The log files of the data dir at `directory`; nil, once the reason is printed, when there is no data dir
    /// there, it cannot be listed, or it holds no log.
    private static func logFiles(in directory: String, print: (String) -> Void) -> LogFiles? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            print(
                JSONValue.object([
                    "ok": false, "dataDir": .string(directory), "error": .string("no data dir at \(directory)"),
                ]).jsonString)
            return nil
        }
        let files: LogFiles
        do {
            files = try LogFiles.list(directory: directory)
        } catch {
            print(
                JSONValue.object(["ok": false, "dataDir": .string(directory), "error": .string("\(error)")]).jsonString)
            return nil
        }
        guard files.segments.count > 0 || FileManager.default.fileExists(atPath: files.activePath) else {
            print(
                JSONValue.object([
                    "ok": false, "dataDir": .string(directory),
                    "error": .string("\(directory) holds no weatherd log (no \(LogFiles.activeName))"),
                ]).jsonString)
            return nil
        }
        return files
    }

    /// Whether a weatherd holds the data dir's lock (without creating or changing anything).
    static func isLocked(_ directory: String) -> Bool {
        let fd = open(directory + "/LOCK", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }

    /// A tail that is only a line still being written by a running service is not damage.
    static func isProblem(_ tail: TornTail?, live: Bool) -> Bool {
        guard let tail else { return false }
        return !(live && tail.reason == .noNewline)
    }

    /// Compacts a stopped data dir (its lock is taken, so a running weatherd is refused).
    static func compact(_ directory: String, retainPayloads: Duration, print: (String) -> Void) -> Int32 {
        let lock: DirectoryLock
        do {
            lock = try DataDirectory(path: directory).lock()
        } catch {
            print(
                JSONValue.object(["ok": false, "dataDir": .string(directory), "error": .string("\(error)")]).jsonString)
            return 1
        }
        defer { lock.release() }
        do {
            let report = try LogMaintenance.compact(
                directory: directory, retainPayloads: retainPayloads, now: SystemClock().timestamp())
            guard case .object(var result) = report.json else { return 1 }
            result["ok"] = true
            result["dataDir"] = .string(directory)
            print(JSONValue.object(result).jsonString)
            return 0
        } catch {
            print(
                JSONValue.object(["ok": false, "dataDir": .string(directory), "error": .string("\(error)")]).jsonString)
            return 1
        }
    }

    static func dump(
        _ files: LogFiles, types: Set<String>, afterSeq: Int64, since: Timestamp?, live: Bool,
        print: (String) -> Void
    ) -> Int32 {
        do {
            let outcome = try LogReader.read(directory: files.directory) { envelope, _ in
                if envelope.seq > afterSeq, types.isEmpty || types.contains(envelope.type),
                    since.map({ envelope.ts >= $0 }) ?? true
                {
                    print(try envelope.json().jsonString)
                }
                return true
            }
            return isProblem(outcome.tail, live: live) ? 1 : 0
        } catch {
            Logger.standardError("weatherd log dump: \(error)")
            return 1
        }
    }

    static func stats(_ files: LogFiles, live: Bool, print: (String) -> Void) -> Int32 {
        var counts: [String: Int64] = [:]
        var first: EventEnvelope?
        var last: EventEnvelope?
        do {
            let outcome = try LogReader.read(directory: files.directory) { envelope, _ in
                counts[envelope.type, default: 0] += 1
                if first == nil { first = envelope }
                last = envelope
                return true
            }
            var result: [String: JSONValue] = [
                "dataDir": .string(files.directory), "events": .int(outcome.lines), "bytes": .int(files.bytes),
                "segments": .int(Int64(files.segments.count)),
                "compactedSegments": .int(Int64(files.manifest.compacted.count)),
                "types": .object(counts.mapValues { .int($0) }),
            ]
            if let first { result["first"] = .object(["seq": .int(first.seq), "ts": .string(first.ts.description)]) }
            if let last { result["last"] = .object(["seq": .int(last.seq), "ts": .string(last.ts.description)]) }
            if let tail = outcome.tail, isProblem(tail, live: live) { result["tornTailBytes"] = .int(tail.length) }
            print(JSONValue.object(result).jsonString)
            return 0
        } catch {
            Logger.standardError("weatherd log stats: \(error)")
            return 1
        }
    }
}
