import Foundation
import Testing
import WeatherDomain
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("weatherd end to end: the data dir at start-up")
struct DataDirectoryEndToEndTests {
    static func mode(_ path: String) -> mode_t {
        var status = stat()
        guard lstat(path, &status) == 0 else { return 0 }
        return status.st_mode & 0o7777
    }

    @Test("an existing data dir with mode 0777 and a log with 0644 are tightened to 0700 and 0600, said on stderr")
    func tightensExisting() async throws {
        let directory = try await populatedDataDirectory(favorites: 1)
        chmod(directory.path, 0o777)
        chmod(directory.logPath, 0o644)
        let weatherd = try startWeatherd(directory)
        let list = try await weatherd.call("favorites/list")
        #expect(list["result"]?["favorites"]?.arrayValue?.count == 1)
        try weatherd.closeInput()
        #expect(await weatherd.waitForExit() == 0)
        #expect(Self.mode(directory.path) == 0o700)
        #expect(Self.mode(directory.logPath) == 0o600)
        #expect(weatherd.standardError.contains("tightened to 700"))
        #expect(weatherd.standardError.contains("tightened to 600"))
    }
}
