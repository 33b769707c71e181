import Foundation

/// The system's time zone as an IANA name (`Europe/Berlin`), as the C library finds it: `TZ` when it is set,
/// else the zone `/etc/localtime` links to, else the name in `/etc/timezone` (Debian's).
package enum SystemTimeZone {
    /// The zone; nil when it has no IANA name (a POSIX rule in `TZ` such as `CET-1CEST`, a copied
    /// `/etc/localtime` with no `/etc/timezone`).
    ///
    /// - Parameters:
    ///   - environment: the process's environment, for `TZ` (`Europe/Berlin`, `:Europe/Berlin`, or a path into
    ///     a zoneinfo folder; empty is UTC, as for the C library).
    ///   - localtime: the link whose target names the zone.
    ///   - timezoneFile: the file that names it otherwise.
    package static func identifier(
        environment: [String: String], localtime: String = "/etc/localtime", timezoneFile: String = "/etc/timezone"
    ) -> String? {
        if let tz = environment["TZ"] {
            let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
            if name.isEmpty { return "UTC" }
            return name.hasPrefix("/") ? zone(inPath: name) : (isIdentifier(name) ? name : nil)
        }
        if let name = linkTarget(localtime).flatMap(zone(inPath:)) { return name }
        guard let data = FileManager.default.contents(atPath: timezoneFile) else { return nil }
        let name = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return isIdentifier(name) ? name : nil
    }

    /// Where the link at `path` points; nil when it is no link (a copied file) or is missing.
    private static func linkTarget(_ path: String) -> String? {
        do {
            return try FileManager.default.destinationOfSymbolicLink(atPath: path)
        } catch {
            return nil
        }
    }

    /// The zone a path into a zoneinfo folder names: what follows `zoneinfo/` (`posix/` and `right/` too).
    static func zone(inPath path: String) -> String? {
        guard let range = path.range(of: "zoneinfo/", options: .backwards) else { return nil }
        var name = String(path[range.upperBound...])
        for prefix in ["posix/", "right/"] where name.hasPrefix(prefix) { name.removeFirst(prefix.count) }
        return isIdentifier(name) ? name : nil
    }

    /// Whether `name` has the shape of an IANA zone name: letters, digits, `/`, `_`, `+`, `-`, no `..`.
    static func isIdentifier(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix("/") && !name.contains("..") && name.first?.isLetter == true
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/_+-".contains($0)) }
    }
}
