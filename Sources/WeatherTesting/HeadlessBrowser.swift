import Foundation
import Synchronization
import WeatherDomain
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real headless Chromium that a test drives over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
/// the browser reads commands on its descriptor 3 and writes answers and events on 4, each a JSON text ending in
/// a NUL byte; here both are one end of a socket pair, so that a browser gone is an error, never a SIGPIPE), with
/// a fresh profile in a temporary directory. One page: `open` loads a URL, `evaluate` runs an
/// expression in it, and `problems` are what its console and the browser's log reported as errors.
///
/// Calls are made one at a time, from one task; the reads block on threads of their own.
package final class HeadlessBrowser: @unchecked Sendable {
    // @unchecked: `session`, `nextID` and the read buffer are used by one task at a time (the test's), in turn;
    // `events` is behind a lock.

    /// Why no browser can be started here; nil when one can.
    package static var unavailable: String? {
        executable == nil ? "chromium is not installed (apt-get install -y chromium)" : nil
    }

    private static var executable: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/local/bin/chromium"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    private let process: TestProcess
    /// This end of the socket pair.
    private let fd: Int32
    private let profile: String
    private var buffer: [UInt8] = []
    private var nextID: Int64 = 0
    private var session: String?
    private let events = Mutex<[JSONValue]>([])

    /// Starts the browser with a blank page.
    ///
    /// - Throws: when it is not installed or cannot be started.
    package init() throws {
        guard let executable = Self.executable else { throw RunningWeatherdError(Self.unavailable ?? "") }
        profile = NSTemporaryDirectory() + "weatherd-chromium-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        let ends = try Self.socketPair()
        defer { close(ends.theirs) }
        fd = ends.ours
        process = try TestProcess(
            executable,
            arguments: [
                "--headless", "--remote-debugging-pipe", "--user-data-dir=\(profile)", "--no-sandbox",
                "--disable-gpu", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-background-networking", "--disable-sync", "--disable-component-update", "--mute-audio",
                "about:blank",
            ],
            environment: ["HOME": profile, "PATH": "/usr/bin:/bin"], inherited: [ends.theirs, ends.theirs])
    }

    deinit {
        process.send(SIGKILL)
        close(fd)
        try? FileManager.default.removeItem(atPath: profile)
    }

    /// Stops the browser and waits for it.
    package func quit() async {
        process.send(SIGKILL)
        _ = await process.exit()
    }

    /// Opens a page at `url` and follows it: its console and the browser's log are recorded from the start.
    package func open(_ url: String) async throws {
        let target = try await call("Target.createTarget", ["url": "about:blank"])
        let targetId = try Self.string(target["targetId"], "targetId")
        let attached = try await call("Target.attachToTarget", ["targetId": .string(targetId), "flatten": true])
        session = try Self.string(attached["sessionId"], "sessionId")
        _ = try await call("Runtime.enable")
        _ = try await call("Log.enable")
        _ = try await call("Page.enable")
        _ = try await call("Page.navigate", ["url": .string(url)])
    }

    /// The value of `expression` evaluated in the page (awaited when it is a promise), as JSON.
    package func evaluate(_ expression: String) async throws -> JSONValue {
        let answer = try await call(
            "Runtime.evaluate", ["expression": .string(expression), "returnByValue": true, "awaitPromise": true])
        if let exception = answer["exceptionDetails"] {
            throw RunningWeatherdError("the page threw: \(exception.jsonString)")
        }
        return answer["result"]?["value"] ?? .null
    }

    /// What the page's console said at level error or warning, uncaught exceptions, and the browser's log
    /// entries of level error (a refused script, a failed load, a broken security policy), as text.
    package var problems: [String] {
        events.withLock { events in
            events.compactMap { event -> String? in
                let params = event["params"] ?? .null
                switch event["method"]?.stringValue {
                case "Runtime.consoleAPICalled":
                    guard let type = params["type"]?.stringValue, type == "error" || type == "warning" else {
                        return nil
                    }
                    let words = params["args"]?.arrayValue?.map { $0["value"]?.stringValue ?? $0.jsonString } ?? []
                    return "console.\(type): " + words.joined(separator: " ")
                case "Runtime.exceptionThrown":
                    return "exception: " + (params["exceptionDetails"]?.jsonString ?? "")
                case "Log.entryAdded":
                    guard params["entry"]?["level"]?.stringValue == "error" else { return nil }
                    return "log: " + (params["entry"]?["text"]?.stringValue ?? "")
                default:
                    return nil
                }
            }
        }
    }

    /// Sends a command (to the page once one is open) and returns its result.
    @discardableResult
    package func call(_ method: String, _ params: [String: JSONValue] = [:]) async throws -> JSONValue {
        nextID += 1
        let id = nextID
        var message: [String: JSONValue] = ["id": .int(id), "method": .string(method), "params": .object(params)]
        if let session, !method.hasPrefix("Target.") { message["sessionId"] = .string(session) }
        let bytes = JSONValue.object(message).jsonBytes + [0]
        let fd = fd
        let failed = await onOwnThread(named: "browser-send") { Descriptor.writeAll(fd, bytes, socket: true) }
        if let failed { throw SystemError("writing to the browser", errno: failed) }
        while true {
            let message = try await nextMessage()
            if message["id"]?.intValue == id {
                if let error = message["error"] { throw RunningWeatherdError("\(method): \(error.jsonString)") }
                return message["result"] ?? .null
            }
            if message["method"] != nil { events.withLock { $0.append(message) } }
        }
    }

    /// The next message the browser wrote.
    private func nextMessage() async throws -> JSONValue {
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let text = Array(buffer[..<end])
                buffer.removeFirst(end + 1)
                return try JSONValue.parse(text)
            }
            let fd = fd
            let chunk = await onOwnThread(named: "browser-read") { () -> [UInt8] in
                var bytes = [UInt8](repeating: 0, count: 65_536)
                let count = bytes.withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
                return count > 0 ? Array(bytes[..<count]) : []
            }
            guard !chunk.isEmpty else { throw RunningWeatherdError("the browser closed its pipe (it exited)") }
            buffer += chunk
        }
    }

    private static func string(_ value: JSONValue?, _ name: String) throws -> String {
        guard let text = value?.stringValue else { throw RunningWeatherdError("the browser gave no \(name)") }
        return text
    }

    /// A connected socket pair whose ends are close-on-exec and above 4, so that the browser's can become its 3
    /// and 4.
    private static func socketPair() throws -> (ours: Int32, theirs: Int32) {
        var ends: [Int32] = [-1, -1]
        #if canImport(Glibc)
            let stream = Int32(SOCK_STREAM.rawValue)
        #else
            let stream = SOCK_STREAM
        #endif
        guard socketpair(AF_UNIX, stream, 0, &ends) == 0 else { throw SystemError("socketpair", errno: errno) }
        return try (raise(ends[0]), raise(ends[1]))
    }

    private static func raise(_ fd: Int32) throws -> Int32 {
        let high = fcntl(fd, F_DUPFD_CLOEXEC, 10)
        close(fd)
        guard high >= 0 else { throw SystemError("fcntl F_DUPFD_CLOEXEC", errno: errno) }
        return high
    }
}
