import Foundation
import Synchronization
import WeatherDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real `weatherd` binary, started as a child process and spoken to over pipes.
package final class RunningWeatherd: Sendable {
    /// Every stdout line, in order.
    package let output = CollectingSink()
    private let process: TestProcess
    private let stdin: FileHandle
    /// The read end of the child's stdout, read from the start unless the caller chose to read it later.
    private let stdout: FileHandle
    private let readingOutput = Mutex(false)
    /// Every stderr line, in order.
    package let errors = CollectingSink()
    private let nextID = Mutex<Int64>(1)
    /// How many of the two output pipes have reached their end.
    private let drained = Drained()

    /// The built `weatherd` next to the running test bundle.
    package static var binaryPath: String {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "weatherd"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug/weatherd"),
        ]
        return (candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]).path
    }

    /// Every provider's base URL, pointed at a closed port on 127.0.0.1: the binary under test never reaches
    /// the network, whatever it is asked; a test gives the providers it uses their stand-in's URL (by flag,
    /// which wins over these, or by environment).
    package static let offline: [String: String] = Dictionary(
        uniqueKeysWithValues: [
            "OWM_BASE_URL", "OPEN_METEO_BASE_URL", "OPEN_METEO_GEOCODING_BASE_URL", "OPEN_METEO_AIR_QUALITY_BASE_URL",
            "NWS_BASE_URL", "METEOALARM_BASE_URL", "BRIGHTSKY_BASE_URL", "FPAS_BASE_URL",
            "OPEN_METEO_ENSEMBLE_BASE_URL",
        ].map { ($0, "http://127.0.0.1:1") })

    /// Where the binary under test would find the machine's location by itself (`--auto-location`): no system
    /// bus and a time zone without a city, so that no test finds the machine it runs on; a test gives a stand-in
    /// bus (`DBUS_SYSTEM_BUS_ADDRESS`) or a zone (`TZ`) to find one.
    package static let unlocated = [
        "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/weatherd-tests-system-bus", "TZ": "UTC",
    ]

    /// This process's environment without `WEATHERD_DATA_DIR`, the providers `offline`, nowhere to find the
    /// machine (`unlocated`), then `extra`.
    package static func environment(_ extra: [String: String]) -> [String: String] {
        var variables = ProcessInfo.processInfo.environment
        variables["WEATHERD_DATA_DIR"] = nil
        variables.merge(offline) { _, closed in closed }
        variables.merge(unlocated) { _, nowhere in nowhere }
        variables.merge(extra) { _, given in given }
        return variables
    }

    /// Starts `weatherd` with `arguments` (for example `--data-dir`).
    ///
    /// - Parameter readOutput: false leaves stdout unread (a client that stops reading) until `readOutput()`.
    package init(arguments: [String], environment: [String: String] = [:], readOutput: Bool = true) throws {
        process = try TestProcess(
            Self.binaryPath, arguments: arguments, environment: Self.environment(environment), standardInput: .pipe,
            standardOutput: .pipe, standardError: .pipe)
        stdin = process.input!
        stdout = process.output!
        Self.drain(process.errors!, done: drained) { [errors] line in errors.send(line) }
        if readOutput { self.readOutput() }
    }

    /// Starts reading stdout (once; `init` does it unless told not to).
    package func readOutput() {
        let first = readingOutput.withLock { reading in
            defer { reading = true }
            return !reading
        }
        if first { Self.drain(stdout, done: drained) { [output] line in output.send(line) } }
    }

    /// Closes the read end of stdout unread (a status bar that goes away): only for a process started with
    /// `readOutput: false`.
    package func closeOutput() throws {
        precondition(!readingOutput.withLock { $0 }, "stdout is being read")
        try stdout.close()
        drained.finish()
    }

    /// Reads a pipe to its end on a thread of its own, handing on whole lines.
    private static func drain(_ handle: FileHandle, done: Drained, _ emit: @escaping @Sendable ([UInt8]) -> Void) {
        let fd = handle.fileDescriptor
        let thread = Thread {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                for byte in buffer[..<count] {
                    if byte == UInt8(ascii: "\n") {
                        emit(pending)
                        pending.removeAll(keepingCapacity: true)
                    } else {
                        pending.append(byte)
                    }
                }
            }
            if !pending.isEmpty { emit(pending) }
            done.count.withLock { $0 += 1 }
        }
        thread.start()
    }

    /// Everything written to stderr so far.
    package var standardError: String {
        errors.lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
    }

    package var pid: Int32 { process.pid }

    /// The child's peak resident set size so far (`VmHWM` in `/proc/<pid>/status`), in bytes.
    ///
    /// - Throws: when the process has ended or the file cannot be read or understood.
    package func peakResidentBytes() throws -> Int64 { try statusBytes("VmHWM") }

    /// The child's resident set size now (`VmRSS`), in bytes.
    ///
    /// - Throws: when the process has ended or the file cannot be read or understood.
    package func residentBytes() throws -> Int64 { try statusBytes("VmRSS") }

    private func statusBytes(_ field: String) throws -> Int64 {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int64($0) })
        else { throw RunningWeatherdError("no \(field) line in /proc/\(pid)/status") }
        return kilobytes * 1024
    }

    /// Writes raw bytes to stdin.
    package func write(_ bytes: [UInt8]) throws { try stdin.write(contentsOf: Data(bytes)) }

    /// Writes one line (a newline is added).
    package func send(line: String) throws { try write(Array((line + "\n").utf8)) }

    /// Sends a request and waits for its response.
    ///
    /// - Returns: the whole response object.
    package func call(_ method: String, _ params: JSONValue? = nil, timeout: Duration = hangGuardLimit) async throws
        -> JSONValue
    {
        let id = nextID.withLock { id in
            defer { id += 1 }
            return id
        }
        var request: [String: JSONValue] = ["jsonrpc": "2.0", "id": .int(id), "method": .string(method)]
        if let params { request["params"] = params }
        try send(line: JSONValue.object(request).jsonString)
        guard let response = try await output.response(id: .int(id), timeout: timeout) else {
            throw RunningWeatherdError("no response to \(method) within \(timeout); stderr: \(standardError)")
        }
        return response
    }

    /// Closes stdin (end of input).
    package func closeInput() throws { try stdin.close() }

    /// Sends a signal.
    package func signal(_ number: Int32) { process.send(number) }

    /// Waits for the process to exit and returns its exit status; nil when `timeout` passes first.
    ///
    /// The bound is a hang guard, never a speed claim: a test that claims an exit "at once" (before a held
    /// upstream answer, say) shows it by the process ending while the answer is still held.
    package func waitForExit(timeout: Duration = hangGuardLimit) async -> Int32? {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while process.isRunning || drained.count.withLock({ $0 }) < 2 {
            if ContinuousClock.now >= deadline { return process.status }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return process.status
    }

    deinit {
        if process.isRunning { process.send(SIGKILL) }
    }
}

/// Counts the output pipes that reached their end, so a finished process's output is complete.
private final class Drained: Sendable {
    let count = Mutex(0)

    /// Counts one pipe as ended.
    func finish() { count.withLock { $0 += 1 } }
}

/// A test-helper failure with a message.
package struct RunningWeatherdError: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}
