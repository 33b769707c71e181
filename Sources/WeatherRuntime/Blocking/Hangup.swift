#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Returns once the peer of `fd` has gone (a socket closed or shut down both ways, a pipe whose other end
/// closed: `POLLHUP`, `POLLERR`), or at once when the waiting task is cancelled. It polls on a thread of
/// its own, so it costs the pool nothing; a descriptor that never hangs up (a terminal) keeps that thread
/// until the process ends.
package func waitForHangup(of fd: Int32, named name: String) async {
    let gone = Promise<Void>()
    startThread(named: name) {
        var entry = pollfd(fd: fd, events: 0, revents: 0)
        while poll(&entry, 1, -1) < 0, errno == EINTR {}
        gone.fulfill(())
    }
    _ = await gone.waitUnlessCancelled()
}
