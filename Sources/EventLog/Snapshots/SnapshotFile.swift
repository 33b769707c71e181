import WeatherDomain

/// One snapshot: the whole state after the event `seq`, with what is needed to check it against the log.
///
/// On disk it is one JSON line with a fixed key order, header first so `head -c 300` shows it:
/// `{"format":"weatherd-snapshot","version":2,"build":"0.1.0","seq":S,"chain":"…","commandWindow":W,"fsync":"always",`
/// `"index":[[offset,"previousChain"],…],"state":{…},"crc":"…"}` and a newline. `crc` is CRC-32C of
/// every byte before `,"crc"`, as in the log. Start-up uses a snapshot only when its crc holds, its
/// `version` is this format's, its `build` is the running weatherd's, its `commandWindow` is the
/// configured one, and the log's line `seq` still has `chain`.
package struct SnapshotFile: Sendable, Equatable {
    /// The value of `format`.
    package static let format = "weatherd-snapshot"
    /// The format version: raised whenever the file's or any slice's encoding changes; other versions are ignored.
    package static let version: Int64 = 2

    /// The seq of the last event the state includes.
    package var seq: Int64
    /// The `chain` of the log line holding `seq`.
    package var chain: UInt32
    /// The `--command-window` the command ledger was built with.
    package var commandWindow: Int
    /// The `--fsync` mode the log was written with (informational).
    package var fsync: String
    /// The weatherd version that folded the state: another build may fold the same events differently
    /// (a type it did not know, a reducer fix), so start-up uses only snapshots of its own build.
    package var build: String
    /// The log's seq → offset index up to `seq`.
    package var index: SeqIndex
    /// The state (`WeatherState.snapshotJSON`).
    package var state: JSONValue

    package init(
        seq: Int64, chain: UInt32, commandWindow: Int, fsync: String, build: String, index: SeqIndex, state: JSONValue
    ) {
        self.build = build
        self.seq = seq
        self.chain = chain
        self.commandWindow = commandWindow
        self.fsync = fsync
        self.index = index
        self.state = state
    }

    private static let crcPrefix = Array(",\"crc\":\"".utf8)

    /// The file's bytes, newline included.
    package var bytes: [UInt8] {
        var out: [UInt8] = []
        out.append(
            contentsOf: "{\"format\":\"\(Self.format)\",\"version\":\(Self.version),\"build\":".utf8)
        appendJSONString(build, to: &out)
        out.append(contentsOf: ",\"seq\":\(seq),\"chain\":\"".utf8)
        out.append(contentsOf: CRC32C.hex(chain))
        out.append(contentsOf: "\",\"commandWindow\":\(commandWindow),\"fsync\":".utf8)
        appendJSONString(fsync, to: &out)
        out.append(contentsOf: ",\"index\":".utf8)
        JSONValue.array(
            index.entries.map {
                .array([
                    .int($0.offset), .string(CRC32C.hexString($0.previousChain)),
                    .int($0.file),
                ])
            }
        ).encode(into: &out)
        out.append(contentsOf: ",\"state\":".utf8)
        state.encode(into: &out)
        let crc = CRC32C.checksum(out)
        out.append(contentsOf: Self.crcPrefix)
        out.append(contentsOf: CRC32C.hex(crc))
        out.append(contentsOf: "\"}\n".utf8)
        return out
    }

    /// Reads a snapshot file's bytes.
    ///
    /// - Throws: `SnapshotError` when the file is truncated, its crc fails, its version is not this
    ///   build's, or its content is not a snapshot.
    package init(bytes: [UInt8]) throws(SnapshotError) {
        let trailer = Self.crcPrefix.count + 8 + 3
        guard bytes.count > trailer, bytes.last == UInt8(ascii: "\n"),
            bytes[bytes.count - 3] == UInt8(ascii: "\""), bytes[bytes.count - 2] == UInt8(ascii: "}"),
            bytes[(bytes.count - trailer)..<(bytes.count - 11)].elementsEqual(Self.crcPrefix)
        else { throw .truncated }
        let body = bytes.count - trailer
        guard let recorded = Self.hex(bytes[(body + Self.crcPrefix.count)..<(bytes.count - 3)]),
            recorded == bytes.withUnsafeBytes({ CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[..<body])) })
        else { throw .checksum }
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes[..<(bytes.count - 1)], maxDepth: 256)
        } catch {
            throw .malformed("not JSON: \(error)")
        }
        guard json["format"] == .string(Self.format) else { throw .malformed("format is not \(Self.format)") }
        guard let version = json["version"]?.intValue else { throw .malformed("version is not an integer") }
        guard version == Self.version else { throw .version(version) }
        do throws(FieldError) {
            let reader = try FieldReader(json, path: "snapshot")
            let entries = try reader.elements("index") { item, path throws(FieldError) -> SeqIndex.Entry in
                // Snapshots written before segments hold [offset, chain]: offsets into the one file, whose first seq is 1.
                guard case .array(let pair) = item, pair.count == 2 || pair.count == 3, let offset = pair[0].intValue,
                    let chain = pair[1].stringValue.flatMap(CRC32C.parseHex),
                    let file = pair.count == 3 ? pair[2].intValue : 1, file >= 1
                else { throw FieldError(path: path, problem: "must be [offset, \"previousChain\", file]") }
                return SeqIndex.Entry(offset: offset, previousChain: chain, file: file)
            }
            guard let chain = CRC32C.parseHex(try reader.string("chain")) else {
                throw FieldError(path: "snapshot.chain", problem: "must be 8 hex digits")
            }
            self.init(
                seq: try reader.int("seq"), chain: chain, commandWindow: Int(try reader.int("commandWindow")),
                fsync: try reader.string("fsync"), build: try reader.string("build"), index: SeqIndex(entries: entries),
                state: reader.members["state"] ?? .null)
        } catch {
            throw .malformed(error.description)
        }
    }

    private static func hex(_ digits: ArraySlice<UInt8>) -> UInt32? {
        digits.count == 8 ? digits.withUnsafeBytes { CRC32C.parseHex($0, at: 0) } : nil
    }
}

/// Why a snapshot file cannot be used; start-up then falls back to an older snapshot or a full replay.
package struct SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Equatable {
        case truncated, checksum, version(Int64), malformed(String), mismatch(String)
    }

    private let code: Code

    /// The file does not end in a complete `crc` trailer.
    package static let truncated = SnapshotError(code: .truncated)
    /// The crc does not match the bytes.
    package static let checksum = SnapshotError(code: .checksum)
    /// Another format version.
    package static func version(_ version: Int64) -> SnapshotError { SnapshotError(code: .version(version)) }
    /// The crc holds but the content is not a snapshot this build can read.
    package static func malformed(_ detail: String) -> SnapshotError { SnapshotError(code: .malformed(detail)) }
    /// The snapshot does not describe this log (or this configuration).
    package static func mismatch(_ detail: String) -> SnapshotError { SnapshotError(code: .mismatch(detail)) }

    /// A stable machine-readable name: `truncated`, `checksum`, `version`, `malformed`, `mismatch`.
    package var kind: String {
        switch code {
        case .truncated: "truncated"
        case .checksum: "checksum"
        case .version: "version"
        case .malformed: "malformed"
        case .mismatch: "mismatch"
        }
    }

    package var description: String {
        switch code {
        case .truncated: "it is truncated (no complete crc trailer)"
        case .checksum: "its crc does not match its bytes"
        case .version(let version): "it has format version \(version), this build reads \(SnapshotFile.version)"
        case .malformed(let detail): "its content is not a snapshot: \(detail)"
        case .mismatch(let detail): "it does not match the log: \(detail)"
        }
    }
}
