import Foundation
import WeatherDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `count` changes one at a time (each answered before the next), against a raw write+fdatasync loop.
func append(binary: String, dir: String, count: Int) throws -> JSONValue {
    let dataDir = dir + "/append-\(getpid())"
    let child = try Child(binary: binary, dataDir: dataDir)
    let lines = (0..<count).map { request($0, "settings/set", #"{"units":"\#($0 % 2 == 0 ? "imperial" : "metric")"}"#) }
    let service = seconds {
        for line in lines {
            child.send(line)
            child.readLines(1)
        }
    }
    child.stop()
    let lineSize = 190
    let raw = try seconds {
        let path = dir + "/raw-\(getpid()).log"
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_TRUNC, 0o600)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer {
            close(fd)
            unlink(path)
        }
        let bytes = [UInt8](repeating: 120, count: lineSize)
        for _ in 0..<count {
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            fdatasync(fd)
        }
    }
    return .object([
        "bench": "append", "count": .int(Int64(count)), "eventsPerSecond": .double((Double(count) / service).rounded()),
        "rawWriteFsyncPerSecond": .double((Double(count) / raw).rounded()),
        "ratioToRaw": .double(Rounding.round(raw / service, decimals: 3)), "target": ">= 0.8",
    ])
}

/// `count` changes from `writers` pipelined writers (all sent at once, `writers` in flight at a time).
func group(binary: String, dir: String, count: Int, writers: Int) throws -> Double {
    let child = try Child(binary: binary, dataDir: dir + "/group-\(writers)-\(getpid())")
    let lines = (0..<count).map { request($0, "settings/set", #"{"units":"\#($0 % 2 == 0 ? "imperial" : "metric")"}"#) }
    let elapsed = seconds {
        var sent = 0
        var answered = 0
        while answered < count {
            while sent < count, sent - answered < writers {
                child.send(lines[sent])
                sent += 1
            }
            child.readLines(1)
            answered += 1
        }
    }
    child.stop()
    return Double(count) / elapsed
}
