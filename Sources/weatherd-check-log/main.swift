import Foundation
import WeatherDomain
import WeatherTesting

// weatherd-check-log [--schemas DIR] PATH...: the independent log checker, for a data dir or log files given in seq
// order. Without --schemas it validates against `Events/schemas` when the current directory has it (a checkout of
// the repository), and otherwise checks the format alone, saying so in its summary. Prints one JSON summary line;
// exits 1 with the first problem, 2 on bad usage.

let usage = "usage: weatherd-check-log [--schemas DIR] DATA_DIR | LOG_FILE...\n"
var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--help" || arguments.first == "-h" {
    FileHandle.standardOutput.write(
        Data(
            (usage + """
                Checks a weatherd log independently of weatherd: each line's key order, seq, chain and crc, the
                compacted segments and retention through the manifest, and with schemas every event's data.
                --schemas DIR validates data against DIR's <type>.v<v>.json; without it, Events/schemas is used
                when the current directory has one, and otherwise the format alone is checked ("schemas": null).
                Prints one JSON line; exits 0 when the log is sound, 1 at the first problem, 2 on bad usage.

                """).utf8))
    exit(0)
}
var schemas: String?
if arguments.first == "--schemas", arguments.count >= 2 {
    schemas = arguments[1]
    arguments.removeFirst(2)
} else if FileManager.default.fileExists(atPath: "Events/schemas") {
    schemas = "Events/schemas"
}
guard !arguments.isEmpty, !arguments.contains(where: { $0.hasPrefix("-") }) else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}

func emit(_ value: JSONValue) {
    FileHandle.standardOutput.write(Data((value.jsonString + "\n").utf8))
}

do {
    let check = try schemas.map { try LogCheck(schemasDirectory: $0) } ?? LogCheck()
    var isDirectory: ObjCBool = false
    let single = arguments.count == 1 && FileManager.default.fileExists(atPath: arguments[0], isDirectory: &isDirectory)
    let summary =
        single && isDirectory.boolValue
        ? try check.check(dataDirectory: arguments[0]) : try check.check(files: arguments)
    emit([
        "ok": true, "events": .int(Int64(summary.events)), "lastSeq": .int(summary.lastSeq),
        "types": .object(summary.types.mapValues { .int(Int64($0)) }),
        "schemas": schemas.map { .string($0) } ?? .null,
    ])
} catch let problem as LogCheck.Problem {
    emit([
        "ok": false, "error": .string(problem.message), "file": .string(problem.file),
        "offset": .int(Int64(problem.offset)), "seq": .int(problem.seq),
    ])
    exit(1)
} catch {
    emit(["ok": false, "error": .string("\(error)")])
    exit(1)
}
