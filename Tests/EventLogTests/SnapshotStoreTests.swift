import EventLog
import Foundation
import Testing
import WeatherTesting

@Suite("Snapshot store")
struct SnapshotStoreTests {
    @Test("a failed snapshot write leaves no temporary file behind")
    func failedWriteRemovesTemporary() throws {
        let directory = TemporaryDataDirectory()
        let data = DataDirectory(path: directory.path)
        try data.create()
        let store = SnapshotStore(directory: data)
        // A non-empty directory where the snapshot should land makes the final rename fail.
        try FileManager.default.createDirectory(
            atPath: store.path(seq: 7) + "/occupied", withIntermediateDirectories: true)
        #expect(throws: StorageError.self) { try store.write(Array("{}\n".utf8), seq: 7) }
        let names = try FileManager.default.contentsOfDirectory(atPath: store.path)
        #expect(!names.contains { $0.hasSuffix(".tmp") }, "\(names)")
    }

    @Test("a snapshot that is a symbolic link is not read through")
    func symlinkedSnapshot() throws {
        let directory = TemporaryDataDirectory()
        let data = DataDirectory(path: directory.path)
        try data.create()
        let store = SnapshotStore(directory: data)
        try store.write(Array("{}\n".utf8), seq: 1)
        let link = store.path(seq: 2)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: store.path(seq: 1))
        #expect(throws: StorageError.self) { try store.read(link) }
        #expect(try store.read(store.path(seq: 1)) == Array("{}\n".utf8))
    }
}
