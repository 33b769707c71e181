import Foundation
import Synchronization
import Testing
import WeatherEngine
import WeatherRuntime
import WeatherService
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fresh folder with a short path (socket paths hold at most 107 bytes), removed by `remove`.
struct ShortTempFolder {
    let path: String

    init() {
        let name = "ws-" + String(UUID().uuidString.prefix(8)).lowercased()
        path = FileManager.default.temporaryDirectory.path + "/" + name
        mkdir(path, 0o700)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Socket helpers shared by the socket and relay tests.
enum SocketTestSupport {
    #if canImport(Glibc)
        static let stream = Int32(SOCK_STREAM.rawValue)
    #else
        static let stream = SOCK_STREAM
    #endif

    /// A connected socket pair.
    static func pair() -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        let result = socketpair(AF_UNIX, stream, 0, &fds)
        precondition(result == 0, "socketpair failed")
        return (fds[0], fds[1])
    }

    /// A socket bound to `path`, listening when `listening`; the caller closes it.
    static func bound(_ path: String, listening: Bool) -> Int32 {
        let fd = socket(AF_UNIX, stream, 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        precondition(result == 0, "bind failed")
        if listening { precondition(listen(fd, 8) == 0, "listen failed") }
        return fd
    }

    /// The mode bits of `path` (without following a link), or nil when it is missing.
    static func mode(_ path: String) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return status.st_mode
    }

    /// Writes all of `text` to `fd`.
    static func write(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { rawWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Reads from `fd` until `count` bytes arrived or end of file, on the calling thread.
    static func read(_ fd: Int32, count: Int) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while result.count < count {
            let got = buffer.withUnsafeMutableBytes { rawRead(fd, $0.baseAddress!, $0.count) }
            guard got > 0 else { break }
            result.append(contentsOf: buffer[..<got])
        }
        return result
    }

}

/// `send` without SIGPIPE on a socket (a fake daemon may write after the relay has gone), `write` on a pipe.
private func rawWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        let sent = send(fd, pointer, count, Int32(MSG_NOSIGNAL))
        if sent >= 0 || errno != ENOTSOCK { return sent }
    #endif
    return write(fd, pointer, count)
}

/// `read`, out of reach of the helpers' own `read`.
private func rawRead(_ fd: Int32, _ pointer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, pointer, count) }

@Suite("Socket path")
struct SocketPathTests {
    @Test("with a runtime dir: <runtime>/weatherd/<last component>-<12 hex>.sock")
    func runtimeDir() throws {
        let runtime = ShortTempFolder()
        defer { runtime.remove() }
        let path = try SocketPath.defaultPath(
            dataDirectory: "/srv/weather", environment: ["XDG_RUNTIME_DIR": runtime.path])
        // FNV-1a 64 of "/srv/weather" is d21818893f624e00: the name is stable across runs and machines.
        #expect(path == runtime.path + "/weatherd/weather-d21818893f62.sock")
    }

    @Test("without a runtime dir, or with one that does not exist: <dataDir>/weatherd.sock")
    func noRuntimeDir() throws {
        #expect(
            try SocketPath.defaultPath(dataDirectory: "/srv/weather", environment: [:]) == "/srv/weather/weatherd.sock")
        let missing = try SocketPath.defaultPath(
            dataDirectory: "/srv/weather", environment: ["XDG_RUNTIME_DIR": "/nonexistent-weatherd-runtime"])
        #expect(missing == "/srv/weather/weatherd.sock")
        let relative = try SocketPath.defaultPath(dataDirectory: "data", environment: [:], currentDirectory: "/home/me")
        #expect(relative == "/home/me/data/weatherd.sock")
    }

    @Test("two data dirs get two names; one data dir, however written, gets one")
    func names() {
        let first = SocketPath.name(dataDirectory: SocketPath.standardize("/home/a/weather", currentDirectory: "/"))
        let second = SocketPath.name(dataDirectory: SocketPath.standardize("/home/b/weather", currentDirectory: "/"))
        #expect(first != second)
        #expect(first.hasPrefix("weather-") && second.hasPrefix("weather-"))
        for spelling in ["/home/a/./weather/", "/home/a/x/../weather", "//home/a/weather", "weather"] {
            let standardized = SocketPath.standardize(spelling, currentDirectory: "/home/a")
            #expect(SocketPath.name(dataDirectory: standardized) == first, "\(spelling)")
        }
    }

    @Test("the name keeps [A-Za-z0-9._-], at most 32 of them, then a dash and 12 hex digits")
    func sanitized() {
        let name = SocketPath.name(dataDirectory: "/tmp/my weather data: été " + String(repeating: "x", count: 40))
        let (base, hash) = (name.dropLast(13), name.suffix(12))
        #expect(base.count == 32)
        #expect(base.hasPrefix("my_weather_data___t__x"))
        #expect(name.dropLast(12).hasSuffix("-"))
        #expect(hash.allSatisfy { $0.isHexDigit })
        #expect(name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
        #expect(SocketPath.name(dataDirectory: "/").hasPrefix("root-"))
    }

    @Test("a path longer than a socket address holds is refused, naming --socket")
    func tooLong() {
        let dataDirectory = "/tmp/" + String(repeating: "d", count: 120)
        let error = #expect(throws: SocketError.self) {
            try SocketPath.defaultPath(dataDirectory: dataDirectory, environment: [:])
        }
        #expect(error?.message.contains("--socket") == true)
        #expect(error?.message.contains("at most \(SocketPath.maxBytes)") == true)
        #expect(throws: Never.self) { try SocketPath.check("/tmp/" + String(repeating: "s", count: 90)) }
    }

    @Test("the folder is created 0700, and a looser one is tightened")
    func folderModes() throws {
        let root = ShortTempFolder()
        defer { root.remove() }
        let folder = root.path + "/a/weatherd"
        let created = try SocketPath.prepareFolder(folder)
        #expect(created == nil)
        #expect(SocketTestSupport.mode(folder).map { $0 & 0o7777 } == 0o700)
        chmod(folder, 0o755)
        let tightened = try SocketPath.prepareFolder(folder)
        #expect(tightened?.contains("tightened to 700") == true)
        #expect(SocketTestSupport.mode(folder).map { $0 & 0o7777 } == 0o700)
    }

    @Test("a folder that is a symbolic link, or belongs to another user, is refused")
    func folderRefusals() throws {
        let root = ShortTempFolder()
        defer { root.remove() }
        let real = root.path + "/real"
        mkdir(real, 0o700)
        let link = root.path + "/link"
        symlink(real, link)
        let linked = #expect(throws: SocketError.self) { try SocketPath.prepareFolder(link) }
        #expect(linked?.message.contains("symbolic link") == true)
        if getuid() == 0 {
            chown(real, 65534, 65534)
            let foreign = #expect(throws: SocketError.self) { try SocketPath.prepareFolder(real) }
            #expect(foreign?.message.contains("belongs to uid 65534") == true)
        }
    }
}

@Suite("Unix listener")
struct UnixListenerTests {
    @Test("the socket file is 0600 and connections reach the accept callback")
    func modeAndAccept() async throws {
        let folder = ShortTempFolder()
        defer { folder.remove() }
        let path = folder.path + "/d.sock"
        let listener = try UnixListener(path: path)
        defer { listener.close() }
        let mode = try #require(SocketTestSupport.mode(path))
        #expect(mode & S_IFMT == S_IFSOCK)
        #expect(mode & 0o777 == 0o600)
        let accepted = Mutex<[Int32]>([])
        listener.start(on: .testing()) { fd in accepted.withLock { $0.append(fd) } }
        let client = try DaemonLauncher.connect(path: path)
        defer { close(client) }
        #expect(await eventually { accepted.withLock { $0.count } == 1 })
        let server = try #require(accepted.withLock { $0.first })
        defer { close(server) }
        SocketTestSupport.write(client, "ping\n")
        #expect(SocketTestSupport.read(server, count: 5) == Array("ping\n".utf8))
        #expect(fcntl(server, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test("a stale socket file is replaced; a live one is refused; a file that is not a socket is left alone")
    func staleAndLive() throws {
        let folder = ShortTempFolder()
        defer { folder.remove() }
        let path = folder.path + "/d.sock"
        close(SocketTestSupport.bound(path, listening: false))
        #expect(SocketTestSupport.mode(path).map { $0 & S_IFMT } == S_IFSOCK)
        let listener = try UnixListener(path: path)
        defer { listener.close() }
        let client = try DaemonLauncher.connect(path: path)
        close(client)
        let live = #expect(throws: SocketError.self) { try UnixListener(path: path) }
        #expect(live?.errno == EADDRINUSE)
        #expect(live?.message == "a weatherd is already listening on \(path)")
        let plain = folder.path + "/plain"
        #expect(FileManager.default.createFile(atPath: plain, contents: Data("keep".utf8)))
        #expect(throws: SocketError.self) { try UnixListener(path: plain) }
        #expect(FileManager.default.contents(atPath: plain) == Data("keep".utf8))
    }

    @Test("close ends the accept loop, with no client to wake it, and unlinks the socket file")
    func closeEnds() async throws {
        let folder = ShortTempFolder()
        defer { folder.remove() }
        let path = folder.path + "/d.sock"
        let listener = try UnixListener(path: path)
        let ended = Mutex<[SocketError?]>([])
        listener.start(
            on: .testing(), onConnection: { close($0) }, onEnd: { error in ended.withLock { $0.append(error) } })
        #expect(ended.withLock { $0.isEmpty })
        // No client ever connects: a blocked accept would never return, so ending at all is the proof.
        listener.close()
        #expect(await eventually { ended.withLock { $0.count } == 1 })
        #expect(ended.withLock { $0.first ?? nil } == nil)
        #expect(SocketTestSupport.mode(path) == nil)
        #expect(throws: DaemonLauncher.ConnectError.noDaemon(path: path)) { try DaemonLauncher.connect(path: path) }
        listener.close()
    }

    @Test("an adopted listening socket is served, and its file is not unlinked at close")
    func adopting() async throws {
        let folder = ShortTempFolder()
        defer { folder.remove() }
        let path = folder.path + "/sd.sock"
        let fd = SocketTestSupport.bound(path, listening: true)
        let listener = try UnixListener(adopting: fd)
        #expect(listener.path == path)
        let accepted = Mutex(0)
        listener.start(on: .testing()) { fd in
            accepted.withLock { $0 += 1 }
            close(fd)
        }
        close(try DaemonLauncher.connect(path: path))
        #expect(await eventually { accepted.withLock { $0 } == 1 })
        listener.close()
        #expect(SocketTestSupport.mode(path).map { $0 & S_IFMT } == S_IFSOCK)
    }

    @Test("adopting a socket that does not listen is refused")
    func adoptingNonListening() {
        let (a, b) = SocketTestSupport.pair()
        defer {
            close(a)
            close(b)
        }
        let error = #expect(throws: SocketError.self) { try UnixListener(adopting: a) }
        #expect(error?.message.contains("not listening") == true)
    }
}

@Suite("Systemd sockets")
struct SystemdSocketsTests {
    @Test("sockets passed to another pid, or none, are not ours")
    func notOurs() throws {
        #expect(try SystemdSockets.parse(environment: [:], pid: 42) == nil)
        #expect(try SystemdSockets.parse(environment: ["LISTEN_PID": "41", "LISTEN_FDS": "1"], pid: 42) == nil)
        #expect(try SystemdSockets.parse(environment: ["LISTEN_PID": "x", "LISTEN_FDS": "1"], pid: 42) == nil)
        #expect(try SystemdSockets.parse(environment: ["LISTEN_PID": "42", "LISTEN_FDS": "0"], pid: 42) == nil)
    }

    @Test("sockets passed to us: descriptor 3, with their count and names")
    func ours() throws {
        let one = try SystemdSockets.parse(environment: ["LISTEN_PID": "42", "LISTEN_FDS": "1"], pid: 42)
        #expect(one == SystemdSockets.Passed(descriptor: 3, count: 1, names: []))
        let two = try SystemdSockets.parse(
            environment: ["LISTEN_PID": "42", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "weatherd:other"], pid: 42)
        #expect(two?.descriptor == 3)
        #expect(two?.count == 2)
        #expect(two?.names == ["weatherd", "other"])
    }

    @Test("a malformed LISTEN_FDS for us is an error")
    func malformed() {
        #expect(throws: SocketError.self) {
            try SystemdSockets.parse(environment: ["LISTEN_PID": "42", "LISTEN_FDS": "many"], pid: 42)
        }
    }
}

@Suite("Peer credentials")
struct PeerCredentialsTests {
    @Test("the peer of an accepted connection is this process, this user and group")
    func accepted() async throws {
        let folder = ShortTempFolder()
        defer { folder.remove() }
        let path = folder.path + "/d.sock"
        let listener = try UnixListener(path: path)
        defer { listener.close() }
        let accepted = Mutex<Int32?>(nil)
        listener.start(on: .testing()) { fd in accepted.withLock { $0 = fd } }
        let client = try DaemonLauncher.connect(path: path)
        defer { close(client) }
        #expect(await eventually { accepted.withLock { $0 } != nil })
        let server = try #require(accepted.withLock { $0 })
        defer { close(server) }
        let credentials = try PeerCredentials(fd: server)
        #expect(credentials.uid == getuid())
        #expect(credentials.gid == getgid())
        #if canImport(Glibc)
            #expect(credentials.pid == getpid())
        #endif
        #expect(PeerCredentials.admit(peerUID: credentials.uid, ownUID: getuid()) == nil)
    }

    @Test("a socket pair's peer is this process")
    func pair() throws {
        let (a, b) = SocketTestSupport.pair()
        defer {
            close(a)
            close(b)
        }
        let credentials = try PeerCredentials(fd: b)
        #expect(credentials.uid == getuid())
        #if canImport(Glibc)
            #expect(credentials.pid == getpid())
        #endif
        let notSocket = open("/dev/null", O_RDONLY)
        defer { close(notSocket) }
        #expect(throws: SocketError.self) { try PeerCredentials(fd: notSocket) }
    }

    @Test("another uid is refused with a message naming both")
    func refusal() {
        let message = PeerCredentials.admit(peerUID: 1001, ownUID: 1000)
        #expect(message == "weatherd: refused: this socket belongs to uid 1000; uid 1001 may not use it")
        #expect(PeerCredentials.admit(peerUID: 1000, ownUID: 1000) == nil)
    }
}

@Suite("Cut writer")
struct CutWriterTests {
    @Test("a peer that never reads is cut once the bound passes; another peer keeps getting every line")
    func cutsTheStalledOne() async throws {
        let (stalled, stalledPeer) = SocketTestSupport.pair()
        let (reading, readingPeer) = SocketTestSupport.pair()
        defer { [stalled, stalledPeer, reading, readingPeer].forEach { close($0) } }
        let closed = Mutex<[String]>([])
        let loop = Runtime.testing().loop
        let stalledChannel = try Channel(loop: loop, fd: stalled, owned: false)
        let readingChannel = try Channel(loop: loop, fd: reading, owned: false)
        let stalledOut = LineOutput(channel: stalledChannel, limit: 64 << 10, overflow: .cut) {
            closed.withLock { $0.append("stalled") }
        }
        let readingOut = LineOutput(channel: readingChannel, limit: 64 << 10, overflow: .cut) {
            closed.withLock { $0.append("reading") }
        }
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 1023)
        let lines = 2000
        let received = Mutex(0)
        let reader = Thread {
            let bytes = SocketTestSupport.read(readingPeer, count: lines * 1024)
            received.withLock { $0 = bytes.count }
        }
        reader.start()
        for round in 0..<(lines / 10) {
            for _ in 0..<10 {
                await stalledOut.room()
                stalledOut.send(line)
                await readingOut.room()
                readingOut.send(line)
            }
            await readingOut.flush()
            if round == lines / 20 { #expect(closed.withLock { $0 } == ["stalled"]) }
        }
        #expect(await eventually { received.withLock { $0 } == lines * 1024 })
        #expect(closed.withLock { $0 } == ["stalled"])
        // Shut down: the stalled peer sees end of file after whatever had reached its buffer.
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while true {
            let got = buffer.withUnsafeMutableBytes { read(stalledPeer, $0.baseAddress!, $0.count) }
            if got <= 0 { break }
            total += got
        }
        #expect(total < lines * 1024)
        stalledChannel.close()
        readingChannel.close()
    }

    @Test("writing to a socket whose peer is gone closes the writer without SIGPIPE")
    func noSIGPIPE() async throws {
        let (mine, peer) = SocketTestSupport.pair()
        defer { close(mine) }
        close(peer)
        let closed = Mutex(0)
        let channel = try Channel(loop: Runtime.testing().loop, fd: mine, owned: false)
        let output = LineOutput(channel: channel, overflow: .cut) { closed.withLock { $0 += 1 } }
        output.send(Array("hello".utf8))
        await output.flush()
        output.send(Array("again".utf8))
        await output.flush()
        #expect(closed.withLock { $0 } == 1)
        channel.close()
    }
}

@Suite("Bounded log file")
struct BoundedLogFileTests {
    @Test("the file moves to .1 when a line would pass the bound")
    func rotates() throws {
        let folder = ShortTempFolder()
        defer { folder.remove() }
        let path = folder.path + "/weatherd.log"
        let file = try BoundedLogFile(path: path, maxBytes: 100)
        let lines = (0..<10).map { "line \($0)" + String(repeating: ".", count: 13) }  // 20 bytes with the newline
        for line in lines { file.write(line) }
        #expect(try String(contentsOfFile: path + ".1", encoding: .utf8) == lines[0..<5].map { $0 + "\n" }.joined())
        #expect(try String(contentsOfFile: path, encoding: .utf8) == lines[5..<10].map { $0 + "\n" }.joined())
        #expect(SocketTestSupport.mode(path).map { $0 & 0o777 } == 0o600)
        file.write("one more")
        #expect(try String(contentsOfFile: path + ".1", encoding: .utf8) == lines[5..<10].map { $0 + "\n" }.joined())
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "one more\n")
    }

    @Test("lines from many threads stay whole and the files stay within the bound; it serves as a Logger sink")
    func concurrent() async throws {
        let folder = ShortTempFolder()
        defer { folder.remove() }
        let path = folder.path + "/weatherd.log"
        let file = try BoundedLogFile(path: path, maxBytes: 1000)
        let done = Mutex(0)
        for thread in 0..<4 {
            Thread {
                for index in 0..<250 { file.write("t\(thread) \(String(format: "%04d", index)) ........") }
                done.withLock { $0 += 1 }
            }.start()
        }
        #expect(await eventually { done.withLock { $0 } == 4 })
        for name in [path, path + ".1"] {
            let text = try String(contentsOfFile: name, encoding: .utf8)
            #expect(text.utf8.count <= 1000)
            #expect(text.split(separator: "\n").allSatisfy { $0.count == 16 && $0.hasSuffix("........") })
        }
        Logger(level: .info, sink: file.sink).info("through the logger")
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasSuffix("weatherd info: through the logger\n"))
    }
}
