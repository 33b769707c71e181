import Foundation
import WeatherDomain

/// The IANA time zones and the point each is named after, for a provider whose answers name no zone (MET Norway).
///
/// Read from the time zone database's `zone1970.tab` (else `zone.tab`), which gives each zone the coordinates of
/// its principal location. The zone of a point is estimated as that of the nearest principal location within
/// `reachKilometres`: right inside a zone, possibly off near a border between zones whose rules differ (a
/// point in Spain nearer Lisbon than Madrid, one in China's far south-west nearer Yangon than Shanghai, which
/// stands for all of eastern China). Farther out (at sea), or with no table, the clocks are taken to keep the
/// nautical offset of the longitude, whole hours of 15°, which no place's clocks need keep.
package struct ZoneTable: Sendable, Equatable {
    /// A zone, its principal location and the countries that keep its clocks.
    package struct Entry: Sendable, Equatable {
        package var identifier: String
        package var lat: Double
        package var lon: Double
        /// The ISO 3166 codes of the countries using the zone (`zone1970.tab` lists several: `DE,DK,NO,SE,SJ`
        /// for `Europe/Berlin`; `zone.tab` one).
        package var countries: [String]

        package init(identifier: String, lat: Double, lon: Double, countries: [String] = []) {
            self.identifier = identifier
            self.lat = lat
            self.lon = lon
            self.countries = countries
        }
    }

    /// The zones, in the table's order.
    package var entries: [Entry]

    /// The farthest a principal location is taken to speak for a point: far enough for Beijing, 1070 km from
    /// Shanghai, whose zone is all of China's but the far west.
    package static let reachKilometres = 2000.0

    /// Where the time zone database's tables are on Linux and macOS.
    package static let systemPaths = ["/usr/share/zoneinfo/zone1970.tab", "/usr/share/zoneinfo/zone.tab"]

    package init(entries: [Entry]) { self.entries = entries }

    /// Reads a `zone1970.tab` or `zone.tab`: tab-separated lines of country codes, coordinates in ISO 6709
    /// (`+4230+00131`, `-335200+0183000`) and the zone; `#` starts a comment. Lines it cannot read are skipped.
    package init(tab text: String) {
        var entries: [Entry] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3, let (lat, lon) = Self.iso6709(fields[1]) else { continue }
            let countries = fields[0].split(separator: ",").map { String($0).trimmingWhitespace }.filter { !$0.isEmpty }
            entries.append(Entry(identifier: String(fields[2]), lat: lat, lon: lon, countries: countries))
        }
        self.init(entries: entries)
    }

    /// The system's table, from the first of `systemPaths` that can be read; empty when none can (every point
    /// then keeps its nautical offset).
    package static func system() -> ZoneTable {
        for path in systemPaths {
            do {
                let table = ZoneTable(tab: try String(contentsOfFile: path, encoding: .utf8))
                if !table.entries.isEmpty { return table }
            } catch {
                continue
            }
        }
        return ZoneTable(entries: [])
    }

    /// The zone of the nearest principal location within `reachKilometres` of `(lat, lon)`; nil when none is.
    package func nearest(lat: Double, lon: Double) -> String? { nearestEntry(lat: lat, lon: lon)?.identifier }

    /// The countries using the zone of the nearest principal location within `reachKilometres` of `(lat, lon)`:
    /// those the point is likely in (candidates, not an answer: near a border the nearest zone may be a
    /// neighbour's); empty when no principal location is that near.
    package func countries(lat: Double, lon: Double) -> [String] { nearestEntry(lat: lat, lon: lon)?.countries ?? [] }

    private func nearestEntry(lat: Double, lon: Double) -> Entry? {
        var best: (entry: Entry, distance: Double)?
        for entry in entries {
            let distance = GreatCircle.distanceKm(from: (lat, lon), to: (entry.lat, entry.lon))
            if distance <= Self.reachKilometres, distance < best?.distance ?? .infinity {
                best = (entry, distance)
            }
        }
        return best?.entry
    }

    /// The nautical offset of a longitude: whole hours of 15°, in seconds east.
    package static func nauticalOffsetSeconds(lon: Double) -> Int64 {
        Int64((min(max(lon, -180), 180) / 15).rounded()) * 3600
    }

    /// The zone name and offset a report of `(lat, lon)` carries at `time`: the nearest zone's, else no name and
    /// the nautical offset.
    package func zone(lat: Double, lon: Double, at time: Timestamp) -> (timezone: String?, utcOffsetSeconds: Int64) {
        if let identifier = nearest(lat: lat, lon: lon), let zone = TimeZone(identifier: identifier) {
            let date = Date(timeIntervalSince1970: Double(time.milliseconds) / 1000)
            return (identifier, Int64(zone.secondsFromGMT(for: date)))
        }
        return (nil, Self.nauticalOffsetSeconds(lon: lon))
    }

    /// `±DDMM[SS]±DDDMM[SS]` as degrees.
    private static func iso6709(_ field: Substring) -> (Double, Double)? {
        let text = Array(field)
        guard let split = text.dropFirst().firstIndex(where: { $0 == "+" || $0 == "-" }) else { return nil }
        guard let lat = angle(text[..<split], degreeDigits: 2), let lon = angle(text[split...], degreeDigits: 3)
        else { return nil }
        return (lat, lon)
    }

    private static func angle(_ characters: ArraySlice<Character>, degreeDigits: Int) -> Double? {
        guard let sign = characters.first, sign == "+" || sign == "-" else { return nil }
        let digits = characters.dropFirst()
        guard digits.count == degreeDigits + 2 || digits.count == degreeDigits + 4,
            digits.allSatisfy(\.isASCII), let number = Int(String(digits))
        else { return nil }
        let hasSeconds = digits.count == degreeDigits + 4
        let seconds = hasSeconds ? number % 100 : 0
        let minutes = (hasSeconds ? number / 100 : number) % 100
        let degrees = (hasSeconds ? number / 10_000 : number / 100)
        let value = Double(degrees) + Double(minutes) / 60 + Double(seconds) / 3600
        return sign == "-" ? -value : value
    }
}
