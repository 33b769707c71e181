import Foundation

extension ZoneTable {
    /// The time zone database's links (`backward`'s `Asia/Calcutta` → `Asia/Kolkata`), in `tzdata.zi`.
    package static let systemLinksPath = "/usr/share/zoneinfo/tzdata.zi"

    /// The principal location of every zone the system knows, for finding a zone's city: `zone.tab` first (a
    /// zone per country, so `Europe/Oslo` is Oslo), then the zones only `zone1970.tab` has; empty when neither can
    /// be read.
    package static func systemCities() -> (table: ZoneTable, links: [String: String]) {
        var entries: [Entry] = []
        var known: Set<String> = []
        for path in systemPaths.reversed() {
            for entry in ZoneTable(tab: readable(path) ?? "").entries where known.insert(entry.identifier).inserted {
                entries.append(entry)
            }
        }
        return (ZoneTable(entries: entries), readable(systemLinksPath).map(Self.links(zi:)) ?? [:])
    }

    /// The text of the file at `path`; nil when there is none to read (a system without the database has no
    /// cities, which is an answer, not an error).
    private static func readable(_ path: String) -> String? {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            return nil
        }
    }

    /// The links of a `tzdata.zi`: its `L TARGET ALIAS` lines, by alias.
    package static func links(zi text: String) -> [String: String] {
        var links: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("L ") {
            let words = line.split(separator: " ")
            if words.count == 3 { links[String(words[2])] = String(words[1]) }
        }
        return links
    }

    /// The principal location of `identifier`, or of the zone it links to; nil when the table has neither (UTC
    /// and the `Etc/` zones name no place).
    package func principalLocation(of identifier: String, links: [String: String] = [:]) -> Entry? {
        var name = identifier
        for _ in 0..<4 {
            if let entry = entries.first(where: { $0.identifier == name }) { return entry }
            guard let target = links[name] else { return nil }
            name = target
        }
        return nil
    }

    /// The place a zone is named after: its last part, with spaces for underscores (`America/Argentina/
    /// Buenos_Aires` is Buenos Aires).
    package static func cityName(of identifier: String) -> String {
        String(identifier.split(separator: "/").last ?? Substring(identifier)).replacingOccurrences(of: "_", with: " ")
    }
}
