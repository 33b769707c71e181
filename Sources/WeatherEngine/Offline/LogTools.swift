import EventLog
import Foundation
import WeatherDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `weatherd log verify|dump|stats --data-dir DIR`: read a log without starting the service.
///
/// They take no lock and never change a byte, so they work beside a running service; a last line
/// still being written by that service (no newline yet) is not reported as damage.
public enum LogTools {
    /// The usage text.
    public static let usage = """
        usage: weatherd log verify --data-dir DIR
               weatherd log dump   --data-dir DIR [--type TYPE]... [--after-seq N] [--since RFC3339]
               weatherd log stats  --data-dir DIR
        Each prints JSON lines; verify exits 1 at the first problem, naming file, line, seq and offset.
        """

    /// Runs a `log` subcommand and returns the exit code; output goes to `print`.
    public static func run(
        _ arguments: [String], environment: [String: String], print: (String) -> Void
    ) -> Int32 {
        guard let command = arguments.first, ["verify", "dump", "stats"].contains(command) else {
            print(usage)
            return 2
        }
        var directory = Configuration.defaultDataDirectory(environment)
        var types: Set<String> = []
        var afterSeq: Int64 = 0
        var since: Timestamp?
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else {
                print(#"{"ok":false,"error":"\#(flag) needs a value"}"#)
                return 2
            }
            switch flag {
            case "--data-dir": directory = value
            case "--type": types.insert(value)
            case "--after-seq":
                guard let number = Int64(value), number >= 0 else {
                    print(#"{"ok":false,"error":"--after-seq must be a whole number"}"#)
                    return 2
                }
                afterSeq = number
            case "--since":
                guard let time = Timestamp(rfc3339: value) else {
                    print(#"{"ok":false,"error":"--since must be an RFC 3339 time"}"#)
                    return 2
                }
                since = time
            default:
                print(JSONValue.object(["ok": false, "error": .string("unknown option \(flag)")]).jsonString)
                return 2
            }
        }
        let path = DataDirectory(path: directory).logPath
        let live = isLocked(directory)
        switch command {
        case "verify": return verify(path: path, live: live, print: print)
        case "dump": return dump(path: path, types: types, afterSeq: afterSeq, since: since, live: live, print: print)
        default: return stats(path: path, live: live, print: print)
        }
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

    static func verify(path: String, live: Bool, print: (String) -> Void) -> Int32 {
        var unknown: (line: Int64, seq: Int64, offset: Int64, kind: EventKind)?
        var line: Int64 = 0
        do {
            let outcome = try LogReader.read(path: path) { envelope, offset in
                line += 1
                let kind: EventCatalog.Outcome
                do {
                    kind = try envelope.decodedEvent()
                } catch {
                    throw LogDamage(
                        path: path, line: line, seq: envelope.seq, offset: offset,
                        problem: LineProblem(.badJSON, "data does not match its schema: \(error)"))
                }
                if case .unknown(let type) = kind, unknown == nil { unknown = (line, envelope.seq, offset, type) }
                return true
            }
            if let unknown {
                print(
                    JSONValue.object([
                        "ok": false, "file": .string(path), "line": .int(unknown.line), "seq": .int(unknown.seq),
                        "offset": .int(unknown.offset), "error": .string("unknown event type \(unknown.kind)"),
                    ]).jsonString)
                return 1
            }
            if isProblem(outcome.tail, live: live), let tail = outcome.tail {
                print(
                    JSONValue.object([
                        "ok": false, "file": .string(path), "line": .int(outcome.lines + 1),
                        "seq": .int(outcome.position.nextSeq), "offset": .int(tail.offset),
                        "error": .string(
                            "torn tail of \(tail.length) bytes (\(tail.reason.rawValue)); the next start repairs it"),
                    ]).jsonString)
                return 1
            }
            print(
                JSONValue.object([
                    "ok": true, "file": .string(path), "events": .int(outcome.lines),
                    "lastSeq": .int(outcome.position.nextSeq - 1), "bytes": .int(outcome.position.length),
                ]).jsonString)
            return 0
        } catch let damage as LogDamage {
            print(
                JSONValue.object([
                    "ok": false, "file": .string(damage.path), "line": .int(damage.line), "seq": .int(damage.seq),
                    "offset": .int(damage.offset), "error": .string(damage.problem.detail),
                ]).jsonString)
            return 1
        } catch {
            print(JSONValue.object(["ok": false, "file": .string(path), "error": .string("\(error)")]).jsonString)
            return 1
        }
    }

    static func dump(
        path: String, types: Set<String>, afterSeq: Int64, since: Timestamp?, live: Bool, print: (String) -> Void
    ) -> Int32 {
        do {
            let outcome = try LogReader.read(path: path) { envelope, _ in
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

    static func stats(path: String, live: Bool, print: (String) -> Void) -> Int32 {
        var counts: [String: Int64] = [:]
        var first: EventEnvelope?
        var last: EventEnvelope?
        do {
            let outcome = try LogReader.read(path: path) { envelope, _ in
                counts[envelope.type, default: 0] += 1
                if first == nil { first = envelope }
                last = envelope
                return true
            }
            var result: [String: JSONValue] = [
                "file": .string(path), "events": .int(outcome.lines), "bytes": .int(outcome.position.length),
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
