import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking TCP connection to `127.0.0.1:port` for test clients; `receiveBuffer` makes the socket's receive
/// buffer small (a client that does not read fills it soon).
///
/// - Throws: `RunningWeatherdError` when the socket cannot be made or the connection is refused.
package func connectToLoopback(port: Int, receiveBuffer: Int32? = nil) throws -> Int32 {
    #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw RunningWeatherdError("socket: \(errno)") }
    if var size = receiveBuffer {
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else {
        close(fd)
        throw RunningWeatherdError("connect to 127.0.0.1:\(port): \(errno)")
    }
    return fd
}
