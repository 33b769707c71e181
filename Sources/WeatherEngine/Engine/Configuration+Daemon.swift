extension Configuration {
    /// Every option a daemon holds (`Holding.daemon`), by name, as the option writes it, a secret as its digest
    /// and an option without a value left out: what `service/status` shows as `options`, and what a client
    /// compares its own with.
    package var heldOptions: [String: String] {
        var held: [String: String] = [:]
        for option in Self.table.options where option.holding != .client {
            held[option.name] = option.written(self)
        }
        return held
    }

    /// The options this client asked for (by a flag or an environment variable, `explicit`) that a daemon
    /// holding `daemon` (its `heldOptions`) does not have: each named, with the daemon's value and this one
    /// (a secret named only). A default the client merely left alone is never a difference.
    package func differences(fromDaemon daemon: [String: String]) -> [String] {
        Self.table.options.compactMap { option in
            guard option.holding != .client, explicit.contains(option.name) else { return nil }
            let here = option.written(self)
            let there = daemon[option.name]
            guard here != there else { return nil }
            guard option.holding != .daemonSecret else {
                let which =
                    there == nil ? "the daemon has none" : here == nil ? "only the daemon has one" : "another key"
                return "\(option.name) (\(which))"
            }
            return "\(option.name) (daemon: \(option.shown(there)), here: \(option.shown(here)))"
        }
    }
}
