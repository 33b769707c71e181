import Foundation
import WeatherRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small leveled logger that writes one line per message to standard error.
///
/// Standard output carries protocol lines only; everything for humans goes here.
package struct Logger: Sendable {
    /// Severity, in increasing order of importance.
    package enum Level: String, Sendable, CaseIterable, Comparable {
        case debug, info, warning, error

        var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

        package static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }
    }

    /// Messages below this level are dropped.
    package var level: Level
    private let sink: @Sendable (String) -> Void

    /// A logger writing to `sink` (standard error by default).
    package init(level: Level, sink: @escaping @Sendable (String) -> Void = Logger.standardError) {
        self.level = level
        self.sink = sink
    }

    package func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= self.level else { return }
        sink("weatherd \(level.rawValue): \(message())")
    }

    package func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    package func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    package func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    package func error(_ message: @autoclosure () -> String) { log(.error, message()) }

    /// Writes a line to file descriptor 2 in one `write`.
    package static let standardError: @Sendable (String) -> Void = { message in
        var bytes = Array(message.utf8)
        bytes.append(UInt8(ascii: "\n"))
        Descriptor.writeAll(2, bytes)
    }
}
