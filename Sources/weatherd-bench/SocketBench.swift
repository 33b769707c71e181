import Dispatch
import Foundation
import WeatherDomain
import WeatherService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads pipelined by socket clients of one `weatherd serve`: one client alone, then `clients` together
/// (each writing its requests on one thread while reading the answers on another); the baseline is one
/// standalone weatherd on stdio doing the same, in the same run.
func sockets(binary: String, dir: String, clients: Int, perClient: Int) throws -> JSONValue {
    let dataDir = dir + "/sockets-\(getpid())"
    let socket = dir + "/s-\(getpid()).sock"
    // The daemon, started as the durable bench starts it; its own connection stays idle.
    let daemon = try Child(binary: binary, dataDir: dataDir, socketPath: socket)
    defer { daemon.stop() }
    let lines = (0..<perClient).reduce(into: [UInt8]()) { $0 += request($1, "settings/get", "{}") }
    func run(_ count: Int) throws -> Double {
        let fds = try (0..<count).map { _ in try DaemonLauncher.connect(path: socket) }
        defer { fds.forEach { close($0) } }
        return seconds {
            DispatchQueue.concurrentPerform(iterations: count) { index in
                let fd = fds[index]
                let writer = Thread {
                    lines.withUnsafeBytes { raw in
                        var offset = 0
                        while offset < raw.count {
                            let sent = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                            if sent <= 0 { return }
                            offset += sent
                        }
                    }
                }
                writer.start()
                var seen = 0
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                while seen < perClient {
                    let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    if got <= 0 { return }
                    for byte in buffer[..<got] where byte == 10 { seen += 1 }
                }
            }
        }
    }
    let one = try run(1)
    let many = try run(clients)
    let child = try Child(binary: binary, dataDir: dir + "/sockets-stdio-\(getpid())")
    let stdio = seconds {
        child.send(lines)
        child.readLines(perClient)
    }
    child.stop()
    return .object([
        "bench": "sockets", "requestsPerClient": .int(Int64(perClient)), "clients": .int(Int64(clients)),
        "stdioStandaloneAnswersPerSecond": .double((Double(perClient) / stdio).rounded()),
        "oneSocketClientAnswersPerSecond": .double((Double(perClient) / one).rounded()),
        "socketClientsAnswersPerSecond": .double((Double(perClient * clients) / many).rounded()),
        "target": .string("\(clients) socket clients together >= 100000 answers/s"),
    ])
}
