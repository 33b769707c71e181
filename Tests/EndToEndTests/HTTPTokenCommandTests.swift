import Foundation
import Testing
import WeatherService
import WeatherTesting

@Suite("weatherd http-token: prints the HTTP face's token, refuses one others may read")
struct HTTPTokenCommandTests {
    @Test("no token yet: exit 1 and how it is made; then the token, exactly; a token file others may read: refused")
    func printsTheToken() async throws {
        let directory = TemporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let none = try await runCommand(["http-token", "--data-dir", directory.path])
        #expect(none.status == 1)
        #expect(none.output.isEmpty)
        #expect(none.errors.contains("serve --http-listen"), "\(none.errors)")
        let made = try HTTPToken.loadOrCreate(dataDirectory: directory.path)
        let printed = try await runCommand(["http-token", "--data-dir", directory.path])
        #expect(printed.status == 0)
        #expect(printed.output == made.text + "\n")
        #expect(made.text.count == 64)
        let path = directory.path + "/" + HTTPToken.fileName
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let exposed = try await runCommand(["http-token", "--data-dir", directory.path])
        #expect(exposed.status == 1)
        #expect(exposed.output.isEmpty, "an exposed token is not printed")
        #expect(exposed.errors.contains("chmod 600"))
    }
}
