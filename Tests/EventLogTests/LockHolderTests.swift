import EventLog
import Testing
import WeatherTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("LOCK names its holder")
struct LockHolderTests {
    @Test("a pid, and a socket once its line is complete; anything else names no holder")
    func parse() {
        #expect(LockHolder(Array("4242\n".utf8)) == LockHolder(pid: 4242, socket: nil))
        #expect(LockHolder(Array("4242\n/run/w.sock\n".utf8)) == LockHolder(pid: 4242, socket: "/run/w.sock"))
        #expect(LockHolder(Array("4242\n/run/w.so".utf8)) == LockHolder(pid: 4242, socket: nil), "mid-write")
        #expect(LockHolder(Array("4242".utf8))?.pid == 4242, "a pid without its newline")
        for text in ["", "\n", "x\n", "-1\n", "0\n", "99999999999\n"] {
            #expect(LockHolder(Array(text.utf8)) == nil, "\(text.debugDescription)")
        }
    }

    @Test("the lock's holder writes what another reads, and a second lock is refused naming the holder's pid")
    func written() throws {
        let directory = TemporaryDataDirectory()
        let dataDirectory = DataDirectory(path: directory.path)
        try dataDirectory.create()
        let lock = try dataDirectory.lock(socket: "/tmp/x.sock")
        defer { lock.release() }
        #expect(LockHolder.read(lockPath: dataDirectory.lockPath) == LockHolder(pid: getpid(), socket: "/tmp/x.sock"))
        #expect(LockHolder.read(lockPath: directory.path + "/none") == nil)
        do {
            let second = try dataDirectory.lock()
            second.release()
            Issue.record("a second lock was taken")
        } catch {
            guard case .held(_, let pid, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(pid == Int(getpid()))
        }
    }
}
