import EventLog

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The pid of the process that holds the data dir's lock now (its daemon, or a standalone weatherd), or nil
/// when none does.
///
/// Tests stop daemons by this, never by a pid read from a file alone: a daemon that has exited leaves its pid
/// in `LOCK` and in its log, and on a machine that starts thousands of processes (a Linux `pid_max` of
/// 32768) another process soon has that pid, often another test's daemon.
package func lockHolderPID(dataDirectory: String) -> Int32? {
    let path = dataDirectory + "/LOCK"
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    // A shared lock is refused only while someone holds the exclusive one.
    if flock(fd, LOCK_SH | LOCK_NB) == 0 {
        flock(fd, LOCK_UN)
        return nil
    }
    return LockHolder.read(lockPath: path)?.pid
}
