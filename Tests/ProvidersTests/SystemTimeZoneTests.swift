import Foundation
import Providers
import Testing
import WeatherTesting

@Suite("The system's time zone and its principal city")
struct SystemTimeZoneTests {
    @Test(
        "TZ names the zone, bare, after a colon or as a path into zoneinfo; empty is UTC; a POSIX rule has no name",
        arguments: [
            ("Europe/Berlin", "Europe/Berlin"), (":Europe/Berlin", "Europe/Berlin"),
            ("/usr/share/zoneinfo/America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"),
            (":/usr/share/zoneinfo/posix/Asia/Kolkata", "Asia/Kolkata"), ("", "UTC"), ("Etc/GMT+5", "Etc/GMT+5"),
            ("CET-1CEST,M3.5.0,M10.5.0/3", nil), ("../../etc/passwd", nil), ("/tmp/somewhere", nil),
        ] as [(String, String?)])
    func tz(value: String, zone: String?) {
        #expect(SystemTimeZone.identifier(environment: ["TZ": value], localtime: "/nonexistent") == zone)
    }

    @Test("without TZ: the zone /etc/localtime links to, else the name in /etc/timezone, else none")
    func files() throws {
        let directory = TemporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let link = directory.path + "/localtime"
        let named = directory.path + "/timezone"
        try FileManager.default.createSymbolicLink(
            atPath: link, withDestinationPath: "../usr/share/zoneinfo/Pacific/Auckland")
        try "Europe/Oslo\n".write(toFile: named, atomically: true, encoding: .utf8)
        #expect(SystemTimeZone.identifier(environment: [:], localtime: link, timezoneFile: named) == "Pacific/Auckland")
        #expect(
            SystemTimeZone.identifier(environment: [:], localtime: directory.path + "/none", timezoneFile: named)
                == "Europe/Oslo")
        #expect(
            SystemTimeZone.identifier(
                environment: [:], localtime: directory.path + "/none", timezoneFile: directory.path + "/none") == nil)
    }

    @Test("a zone's principal location, through the database's links; its city from its name; none for UTC")
    func cities() throws {
        let table = ZoneTable(
            tab: "# comment\nIN\t+2232+08822\tAsia/Kolkata\nAR\t-3436-05827\tAmerica/Argentina/Buenos_Aires\n")
        let links = ZoneTable.links(zi: "R x 1 2 -\nL Asia/Kolkata Asia/Calcutta\nL Etc/UTC UTC\nL bad\n")
        #expect(links == ["Asia/Calcutta": "Asia/Kolkata", "UTC": "Etc/UTC"])
        let kolkata = try #require(table.principalLocation(of: "Asia/Calcutta", links: links))
        #expect(kolkata.identifier == "Asia/Kolkata")
        #expect(abs(kolkata.lat - 22.533) < 0.001 && abs(kolkata.lon - 88.367) < 0.001)
        #expect(table.principalLocation(of: "UTC", links: links) == nil)
        #expect(table.principalLocation(of: "Europe/Berlin", links: links) == nil)
        #expect(ZoneTable.cityName(of: "America/Argentina/Buenos_Aires") == "Buenos Aires")
        #expect(ZoneTable.cityName(of: "Asia/Kolkata") == "Kolkata")
    }

    @Test(
        "the system's tables: Oslo is its own city, not Berlin's (zone.tab first)",
        .enabled(
            if: FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/zone.tab"),
            "skipped: no time zone database in /usr/share/zoneinfo"))
    func system() {
        let (table, _) = ZoneTable.systemCities()
        #expect(table.principalLocation(of: "Europe/Oslo").map { ZoneTable.cityName(of: $0.identifier) } == "Oslo")
        #expect(table.principalLocation(of: "Europe/Berlin") != nil)
    }
}
