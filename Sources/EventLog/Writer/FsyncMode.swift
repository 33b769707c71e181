/// When the writer makes appended lines durable before answering.
package enum FsyncMode: String, Sendable, CaseIterable {
    /// `fdatasync` every batch before any of its callers is answered (the default).
    case always
    /// Answer after `write`; `fdatasync` at most every 100 ms and at shutdown.
    case batch
    /// Answer after `write`; leave durability to the operating system.
    case never
}
