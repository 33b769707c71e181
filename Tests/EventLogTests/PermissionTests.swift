import EventLog
import Foundation
import Testing
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Data dir permissions")
struct PermissionTests {
    static func mode(_ path: String) -> mode_t {
        var status = stat()
        guard lstat(path, &status) == 0 else { return 0 }
        return status.st_mode & 0o7777
    }

    @Test("loose modes on the data dir, the log, LOCK and snapshots are tightened, and each change is reported")
    func tightens() throws {
        let directory = TemporaryDataDirectory()
        try directory.writeLog(Array("{\"seq\":".utf8))
        let snapshots = directory.path + "/snapshots"
        try FileManager.default.createDirectory(atPath: snapshots, withIntermediateDirectories: true)
        let snapshot = snapshots + "/snapshot-00000000000000000001.json"
        #expect(FileManager.default.createFile(atPath: snapshot, contents: Data("{}".utf8)))
        #expect(FileManager.default.createFile(atPath: directory.path + "/LOCK", contents: nil))
        chmod(directory.path, 0o777)
        chmod(directory.logPath, 0o644)
        chmod(directory.path + "/LOCK", 0o640)
        chmod(snapshots, 0o755)
        chmod(snapshot, 0o644)
        let changes = try DataDirectory(path: directory.path).tightenPermissions()
        #expect(changes.count == 5)
        #expect(changes.contains { $0.contains(directory.logPath) && $0.contains("644") })
        #expect(Self.mode(directory.path) == 0o700)
        #expect(Self.mode(directory.logPath) == 0o600)
        #expect(Self.mode(directory.path + "/LOCK") == 0o600)
        #expect(Self.mode(snapshots) == 0o700)
        #expect(Self.mode(snapshot) == 0o600)
        #expect(try DataDirectory(path: directory.path).tightenPermissions().isEmpty, "nothing left to change")
    }

    @Test("modes already as tight, or tighter, are left alone")
    func leavesTight() throws {
        let directory = TemporaryDataDirectory()
        try directory.writeLog([])
        chmod(directory.path, 0o700)
        chmod(directory.logPath, 0o400)
        #expect(try DataDirectory(path: directory.path).tightenPermissions().isEmpty)
        #expect(Self.mode(directory.logPath) == 0o400)
    }
}
