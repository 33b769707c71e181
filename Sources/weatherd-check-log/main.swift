import Foundation
import WeatherDomain
import WeatherTesting

// weatherd-check-log [--schemas DIR] PATH...: the test suite's independent log checker, for a data dir or log files
// given in seq order. Prints one JSON summary line; exits 1 with the first problem, 2 on bad usage.

var arguments = Array(CommandLine.arguments.dropFirst())
var schemas = "Events/schemas"
if arguments.first == "--schemas", arguments.count >= 2 {
    schemas = arguments[1]
    arguments.removeFirst(2)
}
guard !arguments.isEmpty, !arguments.contains(where: { $0.hasPrefix("-") }) else {
    FileHandle.standardError.write(Data("usage: weatherd-check-log [--schemas DIR] DATA_DIR | LOG_FILE...\n".utf8))
    exit(2)
}

func emit(_ value: JSONValue) {
    FileHandle.standardOutput.write(Data((value.jsonString + "\n").utf8))
}

do {
    let check = try LogCheck(schemasDirectory: schemas)
    var isDirectory: ObjCBool = false
    let single = arguments.count == 1 && FileManager.default.fileExists(atPath: arguments[0], isDirectory: &isDirectory)
    let summary =
        single && isDirectory.boolValue
        ? try check.check(dataDirectory: arguments[0]) : try check.check(files: arguments)
    emit([
        "ok": true, "events": .int(Int64(summary.events)), "lastSeq": .int(summary.lastSeq),
        "types": .object(summary.types.mapValues { .int(Int64($0)) }),
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
