import WeatherDomain
import WeatherEngine

/// What the relay's input side has read and not yet passed on: the whole lines for the daemon, with the
/// answers they will get and the requests they silence, and the answers given locally to lines too long to send.
struct RelayInput {
    /// The answer to a line over the limit, newline included.
    private let tooLong: [UInt8]
    /// The lines for the daemon, each with its newline.
    var outgoing: [UInt8] = []
    /// The answers the daemon will send to `outgoing` (see `RelayLines.judge`).
    var expected: [RelayLines.Expected] = []
    /// The requests `outgoing` cancels, which the daemon never answers.
    var silenced: [JSONValue] = []
    /// The answers for the output, given without the daemon.
    var local: [UInt8] = []

    /// Nothing read yet, for input lines of at most `maxLineBytes`.
    init(maxLineBytes: Int) {
        var line: [UInt8] = []
        RPCLine.error(id: .null, .lineTooLong(limit: maxLineBytes), into: &line)
        line.append(UInt8(ascii: "\n"))
        tooLong = line
    }

    /// Adds one item of the input: a line for the daemon, or the local answer to a line too long.
    mutating func take(_ item: LineSplitter.Item) {
        switch item {
        case .tooLong:
            local.append(contentsOf: tooLong)
        case .line(let bytes):
            let judgement = RelayLines.judge(bytes)
            expected.append(contentsOf: judgement.expected)
            silenced.append(contentsOf: judgement.silenced)
            outgoing.append(contentsOf: bytes)
            outgoing.append(UInt8(ascii: "\n"))
        }
    }
}
