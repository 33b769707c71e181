import Synchronization
import WeatherRuntime

/// How a browser gets into the HTTP face without the token in its address bar, as Jupyter does it: `weatherd open`
/// asks the daemon (over its socket, the user's alone) for a one-time code and prints the face's URL with it; the
/// face trades the code, once and within `codeLifetime`, for a session secret it sets as an `HttpOnly`,
/// `SameSite=Strict` cookie.
///
/// Nothing here is written to the log or kept across a restart: a restarted daemon forgets its sessions, and
/// `weatherd open` is run again. Both lists are bounded (the oldest goes first).
package final class BrowserPasses: Sendable {
    /// How long a code may be traded after it is made.
    package static let codeLifetime: Duration = .seconds(120)
    /// The most codes waiting and the most sessions kept.
    static let maxCodes = 16
    static let maxSessions = 64

    private struct State {
        var codes: [(code: [UInt8], expires: RuntimeInstant)] = []
        var sessions: [[UInt8]] = []
    }

    private let state = Mutex(State())

    package init() {}

    /// A new code, good once until `codeLifetime` after `now`.
    package func issueCode(now: RuntimeInstant) -> String {
        let code = Secret.randomHex(bytes: 16)
        state.withLock { state in
            state.codes.removeAll { $0.expires <= now }
            if state.codes.count >= Self.maxCodes { state.codes.removeFirst() }
            state.codes.append((Array(code.utf8), now.advanced(by: Self.codeLifetime)))
        }
        return code
    }

    /// The secret of a new session when `code` is a code still waiting (it is then spent); nil otherwise.
    package func redeem(_ code: String, now: RuntimeInstant) -> String? {
        let given = Array(code.utf8)
        return state.withLock { state -> String? in
            state.codes.removeAll { $0.expires <= now }
            guard let index = state.codes.firstIndex(where: { Secret.equal($0.code, given) }) else { return nil }
            state.codes.remove(at: index)
            let session = Secret.randomHex(bytes: 32)
            if state.sessions.count >= Self.maxSessions { state.sessions.removeFirst() }
            state.sessions.append(Array(session.utf8))
            return session
        }
    }

    /// Whether `session` is the secret of a session a code started.
    package func admits(session: String) -> Bool {
        let given = Array(session.utf8)
        // Every kept secret is compared whole, so the time taken says nothing about which or how much matched.
        return state.withLock { state in
            state.sessions.reduce(false) { found, kept in Secret.equal(kept, given) || found }
        }
    }
}
