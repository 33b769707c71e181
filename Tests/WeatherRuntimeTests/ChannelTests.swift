import Synchronization
import Testing
import WeatherRuntime
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a channel's reader was handed.
private final class Received: Sendable {
    let bytes = Mutex<[UInt8]>([])
    let ended = Promise<Int32>()

    func handler(_ input: Channel.Input) {
        switch input {
        case .bytes(let chunk): bytes.withLock { $0.append(contentsOf: chunk) }
        case .end(let code): ended.fulfill(code)
        }
    }
}

@Suite("Channels: a descriptor's bytes in and out on the event loop, never blocking")
struct ChannelTests {
    let loop = Runtime.testing().loop

    @Test("a pipe's bytes arrive in order, then its end once the writer closes")
    func readsAPipe() async throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let channel = try Channel(loop: loop, fd: ends[0], owned: true)
        let received = Received()
        channel.startReading { received.handler($0) }
        let text = Array(String(repeating: "weather\n", count: 20_000).utf8)
        #expect(Descriptor.writeAll(ends[1], text) == nil)
        close(ends[1])
        #expect(await received.ended.wait() == 0)
        #expect(received.bytes.withLock { $0 } == text)
        channel.close()
    }

    @Test("a regular file, which no selector watches, is read whole, then ended")
    func readsAFile() async throws {
        let path = "/tmp/weatherd-channel-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let text = Array(String(repeating: "line\n", count: 50_000).utf8)
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        defer { unlink(path) }
        #expect(Descriptor.writeAll(fd, text) == nil)
        _ = lseek(fd, 0, SEEK_SET)
        let channel = try Channel(loop: loop, fd: fd, owned: true)
        let received = Received()
        channel.startReading { received.handler($0) }
        #expect(await received.ended.wait() == 0)
        #expect(received.bytes.withLock { $0 } == text)
        channel.close()
    }

    @Test("writing to a peer that does not read never blocks: the rest is queued, then written once it reads")
    func backpressure() async throws {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        let ends = pair
        defer { close(ends[1]) }
        let channel = try Channel(loop: loop, fd: ends[0], owned: true, lowWater: 1 << 16)
        let room = Promise<Void>()
        channel.onOutput { event in if case .room = event { room.fulfill(()) } }
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<8 { #expect(channel.write(chunk)) }
        #expect(channel.unwrittenBytes > 1 << 20, "most of 8 MiB waits: the peer reads nothing")
        // The peer reads it all; the channel writes the rest as the socket takes it.
        let drained = Task.detached { () -> Int in
            var total = 0
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while total < 8 << 20 {
                let count = buffer.withUnsafeMutableBytes { read(ends[1], $0.baseAddress!, $0.count) }
                if count <= 0 { break }
                total += count
            }
            return total
        }
        await room.wait()
        await channel.flush()
        #expect(channel.unwrittenBytes == 0)
        #expect(await drained.value == 8 << 20)
        channel.close()
    }

    @Test("a peer that is gone fails the output with EPIPE, never a signal; later writes are refused")
    func peerGone() async throws {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        close(ends[1])
        let channel = try Channel(loop: loop, fd: ends[0], owned: true)
        let failed = Promise<Int32>()
        channel.onOutput { event in if case .failed(let code) = event { failed.fulfill(code) } }
        #expect(!channel.write(Array("hello\n".utf8)))
        #expect(await failed.wait() == EPIPE)
        #expect(!channel.write(Array("again\n".utf8)))
        #expect(channel.isOutputClosed)
        channel.close()
    }

    @Test("a peer that hangs up is told to a channel that is not reading")
    func hangup() async throws {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        let channel = try Channel(loop: loop, fd: ends[0], owned: true)
        let gone = Promise<Void>()
        channel.onHangup { gone.fulfill(()) }
        close(ends[1])
        await gone.wait()
        channel.close()
    }

    @Test("paused, a channel reads nothing more; resumed, it reads on")
    func pause() async throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[1]) }
        let channel = try Channel(loop: loop, fd: ends[0], owned: true)
        let received = Received()
        channel.startReading { received.handler($0) }
        channel.pauseReading()
        _ = write(ends[1], "held", 4)
        await loop.turn()
        #expect(received.bytes.withLock { $0 }.isEmpty)
        channel.resumeReading()
        #expect(await eventually { received.bytes.withLock { $0 } == Array("held".utf8) })
        channel.close()
    }
}
