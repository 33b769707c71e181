import Foundation
import WeatherDomain
import WeatherRuntime
import WeatherService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A running weatherd with raw pipes, or a client of `weatherd serve` on its socket: lines in, lines counted out.
final class Child {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    /// Where requests are written and answers read: the pipes, or the one socket of a `serve` client.
    private var sendFD: Int32 = -1
    private var receiveFD: Int32 = -1
    private var socket: Int32?
    /// Lines already read beyond what earlier calls asked for.
    var surplus = 0
    /// The one buffer reads go into (allocating one per read cost the round trip microseconds of its own).
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    /// Starts weatherd alone (`--standalone`), or, with `relay`, as a relay to the data dir's shared daemon
    /// (which it starts, with its socket in the data dir and `--idle-exit 1`, so it goes away after the run).
    convenience init(binary: String, dataDir: String, extra: [String] = [], relay: Bool = false) throws {
        let mode = relay ? ["--idle-exit", "1"] : ["--standalone"]
        try self.init(
            executable: binary,
            arguments: mode + ["--data-dir", dataDir, "--log-level", "error", "--refresh-interval", "0"] + extra)
    }

    /// Starts `weatherd serve` on `socketPath` and connects to it as a client of its own (as a dashboard that
    /// speaks to the socket does, with no relay between).
    convenience init(binary: String, dataDir: String, extra: [String] = [], socketPath: String) throws {
        try self.init(
            executable: binary,
            arguments: ["serve", "--data-dir", dataDir, "--socket", socketPath, "--log-level", "error"]
                + ["--refresh-interval", "0"] + extra)
        let deadline = ContinuousClock.now.advanced(by: .seconds(20))
        while socket == nil {
            if let fd = try? DaemonLauncher.connect(path: socketPath) {
                socket = fd
                (sendFD, receiveFD) = (fd, fd)
            } else {
                guard ContinuousClock.now < deadline else {
                    throw BenchError("weatherd serve did not listen on \(socketPath)")
                }
                usleep(10_000)
            }
        }
    }

    /// Starts any program with raw pipes.
    init(executable: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = nil
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        sendFD = input.fileHandleForWriting.fileDescriptor
        receiveFD = output.fileHandleForReading.fileDescriptor
    }

    func send(_ bytes: [UInt8]) { Descriptor.writeAll(sendFD, bytes) }

    /// Reads until `count` newline-terminated lines have arrived; false when the output ended first.
    @discardableResult
    func readLines(_ count: Int) -> Bool {
        var seen = surplus
        let fd = receiveFD
        while seen < count {
            let read = buffer.withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
            if read <= 0 { return false }
            seen += buffer.withUnsafeBytes { bytes in
                var lines = 0
                for index in 0..<read where bytes[index] == 10 { lines += 1 }
                return lines
            }
        }
        surplus = seen - count
        return true
    }

    /// Sends `lines` with at most `window` unanswered at any time, reading answers while it writes (a client
    /// that wrote everything before reading would stall a server that stops reading while its answers go
    /// unread); returns once every line is answered (or the child's output ends).
    func pipeline(_ lines: [[UInt8]], window: Int) {
        var sent = 0
        var answered = 0
        while answered < lines.count {
            var chunk: [UInt8] = []
            while sent < lines.count, sent - answered < window {
                chunk += lines[sent]
                sent += 1
            }
            if !chunk.isEmpty { send(chunk) }
            let arrived = readAvailable()
            if arrived == 0 { return }
            answered += arrived
        }
    }

    /// Waits for at least one line and returns how many whole lines have arrived (0: the output ended).
    private func readAvailable() -> Int {
        if surplus > 0 {
            defer { surplus = 0 }
            return surplus
        }
        guard readLines(1) else { return 0 }
        defer { surplus = 0 }
        return 1 + surplus
    }

    /// Reads one whole line (the first answer of a fresh child) and returns it without its newline.
    func readLine() -> [UInt8] {
        var line: [UInt8] = []
        let fd = receiveFD
        var byte: [UInt8] = [0]
        while byte.withUnsafeMutableBytes({ Descriptor.read(fd, into: $0) }) == 1 {
            if byte[0] == 10 { return line }
            line.append(byte[0])
        }
        return line
    }

    /// The child's peak resident set size so far (`VmHWM`), in bytes.
    var peakResidentBytes: Int64 {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int64(line.split(separator: " ").dropFirst().first ?? "")
        else { return -1 }
        return kilobytes * 1024
    }

    /// Ends the input (a `serve` client hangs up and stops the daemon) and waits for the process to exit.
    func stop() {
        if let socket {
            close(socket)
            process.terminate()
        }
        input.fileHandleForWriting.closeFile()
        process.waitUntilExit()
    }
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func request(_ id: Int, _ method: String, _ params: String) -> [UInt8] {
    Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#.utf8) + [10]
}
