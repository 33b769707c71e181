/// Where `weatherd serve` ships its log (`--nats nats://HOST:PORT`): a NATS server with JetStream, usually
/// the machine's own on loopback (a leaf node of the fleet's cluster, which carries TLS and credentials across
/// the network).
package struct NATSURL: Sendable, Equatable, CustomStringConvertible {
    /// The server's address (numeric, or `localhost`).
    package var endpoint: MetricsEndpoint

    package init(endpoint: MetricsEndpoint) { self.endpoint = endpoint }

    /// `nats://127.0.0.1:4222`.
    package var description: String { "nats://\(endpoint)" }

    /// Reads `nats://HOST[:PORT]` (port 4222 when none is given); a user or password in the URL is refused (it
    /// would show in `ps`: give them in `--nats-credentials`).
    ///
    /// - Throws: `OptionRefusal` saying what is wrong.
    package static func parse(_ text: String) throws(OptionRefusal) -> NATSURL {
        guard text.hasPrefix("nats://") else {
            throw OptionRefusal("must be a nats:// URL, such as nats://127.0.0.1:4222")
        }
        var rest = String(text.dropFirst("nats://".count))
        if rest.hasSuffix("/") { rest.removeLast() }
        guard !rest.contains("@") else {
            throw OptionRefusal("must not hold a user or password (give them in --nats-credentials FILE)")
        }
        let hasPort = rest.hasPrefix("[") ? rest.contains("]:") : rest.contains(":")
        return NATSURL(endpoint: try MetricsEndpoint.endpoint(hasPort ? rest : rest + ":4222"))
    }
}

extension OptionValue {
    /// `--nats`: `nats://HOST[:PORT]`.
    static var natsURL: OptionValue<NATSURL> {
        OptionValue<NATSURL>(
            placeholder: "URL", read: { text throws(OptionRefusal) in try NATSURL.parse(text) }, write: \.description)
    }

    /// `--nats-stream`: a JetStream stream's name (letters, digits, `-` and `_`).
    static var streamName: OptionValue<String> {
        OptionValue<String>(
            placeholder: "NAME",
            read: { name throws(OptionRefusal) in
                guard !name.isEmpty, name.count <= 64,
                    name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
                else { throw OptionRefusal("must be 1 to 64 letters, digits, - or _") }
                return name
            }, write: { $0 })
    }

    /// `--nats-subject-prefix`: one or more subject tokens (`weatherd`, `site.weatherd`).
    static var subjectPrefix: OptionValue<String> {
        OptionValue<String>(
            placeholder: "PREFIX",
            read: { prefix throws(OptionRefusal) in
                let tokens = prefix.split(separator: ".", omittingEmptySubsequences: false)
                guard !prefix.isEmpty, prefix.count <= 200,
                    tokens.allSatisfy({ token in
                        !token.isEmpty
                            && token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
                            )
                    })
                else { throw OptionRefusal("must be subject tokens of letters, digits, - or _, joined by dots") }
                return prefix
            }, write: { $0 })
    }
}
