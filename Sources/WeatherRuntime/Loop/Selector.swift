#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a registration wants to hear about.
package struct Interest: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The descriptor has bytes to read (or its end).
    package static let read = Interest(rawValue: 1)
    /// The descriptor can take bytes.
    package static let write = Interest(rawValue: 2)
}

/// What a descriptor is ready for, as the selector reported it.
package struct Readiness: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let readable = Readiness(rawValue: 1)
    package static let writable = Readiness(rawValue: 2)
    /// The peer hung up or the descriptor failed (`EPOLLHUP`, `EPOLLERR`; kqueue's `EV_EOF` on a write
    /// filter): reported whatever the interest, so an owner that is not reading still learns its peer is gone.
    /// What is left to read can still be read (without waiting: nobody writes any more).
    package static let hangup = Readiness(rawValue: 4)
}

/// The operating system's readiness notification (epoll on Linux, kqueue on Darwin) and a wake-up that
/// another thread can trigger: the part of the event loop that differs between platforms.
///
/// Its methods may be called from any thread (the system calls are thread-safe); `wait` from the loop's only.
/// Registrations are level-triggered and named by a 64-bit token that the loop never reuses, so an event
/// read for a registration removed in the same round is recognised as stale.
final class Selector: Sendable {
    /// The selector's own descriptor.
    private let fd: Int32
    /// The descriptor whose readiness wakes `wait` (an eventfd on Linux; the read end of a pipe on Darwin).
    private let wakeRead: Int32
    /// Where `wake` writes (the eventfd itself on Linux; the pipe's write end on Darwin).
    private let wakeWrite: Int32
    /// The token of the wake-up registration.
    static let wakeToken: UInt64 = 0

    init() throws(SystemError) {
        #if canImport(Glibc)
            fd = Epoll.create(Int32(O_CLOEXEC))
            guard fd >= 0 else { throw SystemError("epoll_create1", errno: errno) }
            let event = Epoll.eventfd(0, Int32(O_CLOEXEC | O_NONBLOCK))
            guard event >= 0 else {
                let code = errno
                Glibc.close(fd)
                throw SystemError("eventfd", errno: code)
            }
            wakeRead = event
            wakeWrite = event
        #else
            fd = kqueue()
            guard fd >= 0 else { throw SystemError("kqueue", errno: errno) }
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else {
                let code = errno
                Darwin.close(fd)
                throw SystemError("pipe", errno: code)
            }
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, O_NONBLOCK)
            }
            wakeRead = ends[0]
            wakeWrite = ends[1]
        #endif
        try add(wakeRead, token: Self.wakeToken, interest: .read)
    }

    deinit { closeAll() }

    private func closeAll() {
        #if canImport(Glibc)
            Glibc.close(fd)
            Glibc.close(wakeRead)
        #else
            Darwin.close(fd)
            Darwin.close(wakeRead)
            Darwin.close(wakeWrite)
        #endif
    }

    /// Starts watching `descriptor` for `interest` (and always for hang-ups).
    ///
    /// - Throws: `SystemError`; `errno` `EPERM` means the descriptor cannot be watched (a regular file).
    func add(_ descriptor: Int32, token: UInt64, interest: Interest) throws(SystemError) {
        #if canImport(Glibc)
            try control(Epoll.add, descriptor, token: token, interest: interest)
        #else
            try change(descriptor, token: token, from: [], to: interest, adding: true)
        #endif
    }

    /// Changes what `descriptor` is watched for, from `old` to `interest`.
    func modify(_ descriptor: Int32, token: UInt64, from old: Interest, to interest: Interest) throws(SystemError) {
        #if canImport(Glibc)
            try control(Epoll.modify, descriptor, token: token, interest: interest)
        #else
            try change(descriptor, token: token, from: old, to: interest, adding: false)
        #endif
    }

    /// Stops watching `descriptor` (before it is closed).
    func remove(_ descriptor: Int32) {
        #if canImport(Glibc)
            _ = Epoll.control(fd, Epoll.delete, descriptor, nil)
        #else
            let changes = [EVFILT_READ, EVFILT_WRITE].map {
                Self.change(descriptor, filter: $0, flags: EV_DELETE, token: 0)
            }
            _ = changes.withUnsafeBufferPointer { kevent(fd, $0.baseAddress, Int32($0.count), nil, 0, nil) }
        #endif
    }

    /// Makes a `wait` in progress (or the next one) return at once.
    func wake() {
        #if canImport(Glibc)
            var one: UInt64 = 1
            _ = Glibc.write(wakeWrite, &one, 8)
        #else
            var one: UInt8 = 1
            _ = Darwin.write(wakeWrite, &one, 1)
        #endif
    }

    /// Waits until a registration is ready, `wake` is called, or `timeout` nanoseconds pass (nil: no limit),
    /// and calls `ready` for each registration reported (never for the wake-up, which it consumes).
    func wait(timeout: UInt64?, into buffer: inout SelectorBuffer, _ ready: (UInt64, Readiness) -> Void) {
        #if canImport(Glibc)
            let milliseconds: Int32 = timeout.map { Int32(clamping: ($0 + 999_999) / 1_000_000) } ?? -1
            let count = buffer.bytes.withUnsafeMutableBytes { raw in
                Epoll.wait(fd, raw.baseAddress, Int32(buffer.capacity), milliseconds)
            }
            guard count > 0 else { return }
            buffer.bytes.withUnsafeBytes { raw in
                for index in 0..<Int(count) {
                    let (token, events) = Epoll.read(raw, at: index)
                    if token == Self.wakeToken {
                        var value: UInt64 = 0
                        _ = Glibc.read(wakeRead, &value, 8)
                        continue
                    }
                    ready(token, Epoll.readiness(events))
                }
            }
        #else
            var spec = timespec()
            if let timeout {
                spec.tv_sec = Int(timeout / 1_000_000_000)
                spec.tv_nsec = Int(timeout % 1_000_000_000)
            }
            let count = buffer.events.withUnsafeMutableBufferPointer { events in
                timeout == nil
                    ? kevent(fd, nil, 0, events.baseAddress, Int32(events.count), nil)
                    : kevent(fd, nil, 0, events.baseAddress, Int32(events.count), &spec)
            }
            guard count > 0 else { return }
            for event in buffer.events[..<Int(count)] {
                let token = UInt64(UInt(bitPattern: event.udata))
                if token == Self.wakeToken {
                    var drain = [UInt8](repeating: 0, count: 64)
                    while Darwin.read(wakeRead, &drain, drain.count) > 0 {}
                    continue
                }
                let writing = event.filter == Int16(EVFILT_WRITE)
                var readiness: Readiness = writing ? .writable : .readable
                if event.flags & UInt16(EV_ERROR) != 0 || (writing && event.flags & UInt16(EV_EOF) != 0) {
                    readiness.insert(.hangup)
                }
                ready(token, readiness)
            }
        #endif
    }

    #if canImport(Glibc)
        private func control(_ operation: Int32, _ descriptor: Int32, token: UInt64, interest: Interest)
            throws(SystemError)
        {
            var event = Epoll.event(token: token, interest: interest)
            let result = event.withUnsafeMutableBytes { Epoll.control(fd, operation, descriptor, $0.baseAddress) }
            guard result == 0 else { throw SystemError("epoll_ctl", errno: errno) }
        }
    #else
        private func change(_ descriptor: Int32, token: UInt64, from old: Interest, to new: Interest, adding: Bool)
            throws(SystemError)
        {
            var changes: [kevent] = []
            for (flag, filter) in [(Interest.read, EVFILT_READ), (Interest.write, EVFILT_WRITE)] {
                if new.contains(flag) {
                    changes.append(Self.change(descriptor, filter: filter, flags: EV_ADD | EV_ENABLE, token: token))
                } else if adding {
                    changes.append(Self.change(descriptor, filter: filter, flags: EV_ADD | EV_DISABLE, token: token))
                } else if old.contains(flag) {
                    changes.append(Self.change(descriptor, filter: filter, flags: EV_DISABLE, token: token))
                }
            }
            let result = changes.withUnsafeBufferPointer { kevent(fd, $0.baseAddress, Int32($0.count), nil, 0, nil) }
            guard result == 0 else { throw SystemError("kevent", errno: errno) }
        }

        private static func change(_ descriptor: Int32, filter: Int32, flags: Int32, token: UInt64) -> kevent {
            kevent(
                ident: UInt(descriptor), filter: Int16(filter), flags: UInt16(flags), fflags: 0, data: 0,
                udata: UnsafeMutableRawPointer(bitPattern: UInt(token)))
        }
    #endif
}

/// The space a selector's `wait` reads its events into, kept by the loop between rounds.
struct SelectorBuffer {
    /// How many events one `wait` reads at most.
    let capacity: Int
    #if canImport(Glibc)
        var bytes: [UInt8]
    #else
        var events: [kevent]
    #endif

    init(capacity: Int = 256) {
        self.capacity = capacity
        #if canImport(Glibc)
            bytes = [UInt8](repeating: 0, count: capacity * Epoll.eventSize)
        #else
            events = [kevent](repeating: kevent(), count: capacity)
        #endif
    }
}

#if canImport(Glibc)
    /// epoll and eventfd, which Swift's Glibc module does not export: looked up in the C library at run time,
    /// with `struct epoll_event` laid out by hand (packed on x86_64, as the kernel's header declares it).
    enum Epoll {
        typealias Create = @convention(c) (Int32) -> Int32
        typealias Control = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
        typealias Wait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32
        typealias EventFD = @convention(c) (UInt32, Int32) -> Int32

        static let create: Create = symbol("epoll_create1")
        static let control: Control = symbol("epoll_ctl")
        static let wait: Wait = symbol("epoll_wait")
        static let eventfd: EventFD = symbol("eventfd")

        static let add: Int32 = 1
        static let delete: Int32 = 2
        static let modify: Int32 = 3

        private static let input: UInt32 = 0x001
        private static let output: UInt32 = 0x004
        private static let error: UInt32 = 0x008
        private static let hangup: UInt32 = 0x010

        #if arch(x86_64)
            static let eventSize = 12
            private static let dataOffset = 4
        #else
            static let eventSize = 16
            private static let dataOffset = 8
        #endif

        private static func symbol<T>(_ name: String) -> T {
            guard let address = dlsym(nil, name) else { fatalError("the C library has no \(name)") }
            return unsafeBitCast(address, to: T.self)
        }

        /// One `struct epoll_event` asking for `interest` (and hang-ups), carrying `token`.
        static func event(token: UInt64, interest: Interest) -> [UInt8] {
            var events: UInt32 = 0
            if interest.contains(.read) { events |= input }
            if interest.contains(.write) { events |= output }
            var bytes = [UInt8](repeating: 0, count: eventSize)
            bytes.withUnsafeMutableBytes { raw in
                raw.storeBytes(of: events, toByteOffset: 0, as: UInt32.self)
                raw.storeBytes(of: token, toByteOffset: dataOffset, as: UInt64.self)
            }
            return bytes
        }

        /// The token and events of the `index`th event in `raw`.
        static func read(_ raw: UnsafeRawBufferPointer, at index: Int) -> (UInt64, UInt32) {
            let base = index * eventSize
            return (
                raw.loadUnaligned(fromByteOffset: base + dataOffset, as: UInt64.self),
                raw.loadUnaligned(fromByteOffset: base, as: UInt32.self)
            )
        }

        static func readiness(_ events: UInt32) -> Readiness {
            var readiness: Readiness = []
            if events & input != 0 { readiness.insert(.readable) }
            if events & output != 0 { readiness.insert(.writable) }
            if events & (error | hangup) != 0 { readiness.insert(.hangup) }
            return readiness
        }
    }
#endif
