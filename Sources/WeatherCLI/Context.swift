import WeatherDomain
import WeatherRuntime
import WeatherService

/// What a command's `run` gets.
///
/// Every answer a command shows comes through `call`, and every notification through `notifications`: both
/// give their strings terminal-safe (`TerminalText`), unless the command prints JSON (`--json`), which is
/// exact and escapes them itself. Names and upstream texts are thus made harmless where they enter the
/// command, before any of weatherd's own colour or a bar's markup is added to them.
package struct Context: Sendable {
    package var invocation: Invocation
    /// The connection itself: `call` is how a command asks it.
    package var client: LineClient
    /// The server's notifications on this connection, in order, their strings as `shown` gives them.
    package var notifications: AsyncStream<Notification>
    /// The time, what a long-running command waits on, and the event loop of its connections.
    var runtime: Runtime
    /// The runtime's clock.
    var clock: any RuntimeClock { runtime.clock }
    /// The environment weatherd was started with (`DBUS_SESSION_BUS_ADDRESS`, `XDG_STATE_HOME`, `HOME`).
    var variables: [String: String] = [:]
    /// Whether a command without PLACE lets weatherd find the machine's location when none is set
    /// (`--auto-location`, on unless turned off).
    var autoLocation = true

    var output: Output { invocation.output }
    /// The time now.
    func now() -> Timestamp { clock.timestamp() }
    /// Whether the command prints its method's result as JSON.
    var json: Bool { invocation[CLI.json] }

    /// With `--json`, prints `answer` as one JSON line and returns true (the command is done); else false.
    func printedAsJSON(_ answer: JSONValue) -> Bool {
        guard json else { return false }
        output.print(answer.jsonString)
        return true
    }

    /// Sends `method` with `params` and returns its result as the command shows it (`shown`).
    ///
    /// - Throws: the server's `RPCError`, or the connection's end.
    func call(_ method: String, _ params: [String: JSONValue] = [:]) async throws -> JSONValue {
        Self.shown(try await client.call(method, params), json: json)
    }

    /// An answer or a notification as a command with (`json`) or without `--json` shows it: exact, or with
    /// every string terminal-safe.
    static func shown(_ value: JSONValue, json: Bool) -> JSONValue { json ? value : value.terminalSafe }
}
