import Foundation
import WeatherDomain
import WeatherService

#if canImport(Glibc)
    import Glibc
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

    func send(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.write(sendFD, raw.baseAddress! + offset, raw.count - offset)
                if sent <= 0 { return }
                offset += sent
            }
        }
    }

    /// Reads until `count` newline-terminated lines have arrived.
    func readLines(_ count: Int) {
        var seen = surplus
        let fd = receiveFD
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while seen < count {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if read <= 0 { return }
            for byte in buffer[..<read] where byte == 10 { seen += 1 }
        }
        surplus = seen - count
    }

    /// Reads one whole line (the first answer of a fresh child) and returns it without its newline.
    func readLine() -> [UInt8] {
        var line: [UInt8] = []
        let fd = receiveFD
        var byte: UInt8 = 0
        while Glibc.read(fd, &byte, 1) == 1 {
            if byte == 10 { return line }
            line.append(byte)
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
