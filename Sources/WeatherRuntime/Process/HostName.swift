#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The machine's name, as `gethostname(2)` gives it (no lookup on the network).
package enum HostName {
    /// The host name, or nil when the machine has none or it is not UTF-8.
    package static var current: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        guard !bytes.isEmpty else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
