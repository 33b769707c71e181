import Foundation
import Testing
import WeatherRuntime
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("The runtime's read and write loop on file descriptors")
struct DescriptorTests {
    /// A pipe: (read end, write end).
    static func pipeEnds() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        return (ends[0], ends[1])
    }

    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Reads `fd` to its end with `Descriptor.read`, in small pieces.
    static func readAll(_ fd: Int32) -> [UInt8] {
        var all: [UInt8] = []
        var piece = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = piece.withUnsafeMutableBytes { Descriptor.read(fd, into: $0) }
            if count <= 0 { return all }
            all += piece[..<count]
        }
    }

    @Test("a write larger than a full non-blocking pipe waits for the reader and writes every byte, in order")
    func nonBlockingWrite() async throws {
        let (readEnd, writeEnd) = try Self.pipeEnds()
        Self.setNonBlocking(writeEnd)
        let bytes = (0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        // The pipe holds 64 KiB: the write meets EAGAIN again and again until the reader below drains it.
        async let written = try onThread { () -> Int32? in
            defer { close(writeEnd) }
            return Descriptor.writeAll(writeEnd, bytes)
        }
        let received = try await onThread { Self.readAll(readEnd) }
        close(readEnd)
        #expect(try await written == nil)
        #expect(received.count == bytes.count)
        #expect(received == bytes)
    }

    @Test("a read of an empty non-blocking pipe waits for data; the end of the input reads 0")
    func nonBlockingRead() async throws {
        let (readEnd, writeEnd) = try Self.pipeEnds()
        Self.setNonBlocking(readEnd)
        async let received = try onThread { Self.readAll(readEnd) }
        // Written only after the reader may have met the empty pipe; whenever it looks, it must wait, not stop.
        let line = Array("a line\n".utf8)
        #expect(Descriptor.writeAll(writeEnd, line) == nil)
        close(writeEnd)
        #expect(try await received == line)
        close(readEnd)
    }

    #if canImport(Glibc)
        @Test("a send to a socket whose peer is gone is EPIPE, not a signal")
        func peerGone() throws {
            var ends: [Int32] = [0, 0]
            try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
            close(ends[1])
            let failure = Descriptor.writeAll(ends[0], Array("x\n".utf8), socket: true)
            #expect(failure == EPIPE)
            close(ends[0])
        }
    #endif
}
