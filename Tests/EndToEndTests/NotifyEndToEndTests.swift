import Foundation
import Testing
import WeatherTesting

@Suite("weatherd notify, the binary: exit 69 and one line without a session bus or a notification server")
struct NotifyEndToEndTests {
    static func notify(bus address: String) async throws -> (status: Int32?, stderr: String) {
        let directory = TemporaryDataDirectory()
        let notify = try RunningWeatherd(
            arguments: ["notify", "--standalone", "--data-dir", directory.path] + quietTimers,
            environment: ["DBUS_SESSION_BUS_ADDRESS": address, "XDG_STATE_HOME": directory.path + "-state"])
        let status = await notify.waitForExit()
        return (status, notify.standardError)
    }

    @Test("no session bus: exit 69 and one line")
    func noBus() async throws {
        let (status, stderr) = try await Self.notify(bus: "unix:path=/nonexistent/weatherd-bus")
        #expect(status == 69)
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.hasPrefix("weatherd notify: no session bus") == true, "\(stderr)")
    }

    @Test("a bus without a notification server: exit 69 and one line")
    func noServer() async throws {
        let bus = try TestSessionBus(.noServer)
        defer { bus.stop() }
        let (status, stderr) = try await Self.notify(bus: bus.address)
        #expect(status == 69)
        let lines = stderr.split(separator: "\n")
        #expect(
            lines.count == 1
                && lines.first?.hasPrefix("weatherd notify: no notification server on the session bus") == true,
            "\(stderr)")
    }
}
