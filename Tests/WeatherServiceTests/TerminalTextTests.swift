import Synchronization
import Testing
import WeatherDomain

@testable import WeatherCLI

@Suite("terminal-safe text: control characters, separators and bidi overrides shown as escapes")
struct TerminalTextTests {
    @Test(
        "what a terminal would act on is written as a visible escape",
        arguments: [
            ("\u{1B}[31mred", "\\u{1B}[31mred"), ("\u{1B}]0;pwned\u{07}", "\\u{1B}]0;pwned\\u{7}"),
            ("\u{1B}[2J", "\\u{1B}[2J"), ("a\rb", "a\\u{D}b"), ("a\nb\tc", "a\\u{A}b\\u{9}c"), ("\u{0}", "\\u{0}"),
            ("del\u{7F}", "del\\u{7F}"), ("csi\u{9B}2J", "csi\\u{9B}2J"), ("nel\u{85}", "nel\\u{85}"),
            ("abc\u{202E}fed", "abc\\u{202E}fed"),
            ("\u{202A}\u{202B}\u{202C}\u{202D}", "\\u{202A}\\u{202B}\\u{202C}\\u{202D}"),
            ("\u{2066}x\u{2067}\u{2068}\u{2069}", "\\u{2066}x\\u{2067}\\u{2068}\\u{2069}"),
            ("line\u{2028}para\u{2029}", "line\\u{2028}para\\u{2029}"),
        ])
    func escaped(_ text: String, _ shown: String) {
        #expect(TerminalText.safe(text) == shown)
    }

    @Test(
        "names in any script, emoji, directional marks and backslashes are kept as they are",
        arguments: ["Zürich", "東京", "תל אביב\u{200F}", "Berlin 🌧️", "a\\u{1B}b", "Ağrı\u{200E}", "القاهرة\u{061C}", ""])
    func kept(_ text: String) {
        #expect(TerminalText.safe(text) == text)
    }

    @Test("every scalar of the unsafe ranges is escaped, and nothing unsafe is left")
    func everyRange() throws {
        let ranges: [ClosedRange<UInt32>] = [
            0x00...0x1F, 0x7F...0x9F, 0x2028...0x2029, 0x202A...0x202E, 0x2066...0x2069,
        ]
        for value in ranges.joined() {
            let scalar = try #require(Unicode.Scalar(value))
            #expect(TerminalText.isUnsafe(scalar))
            let shown = TerminalText.safe("x" + String(Character(scalar)) + "y")
            #expect(shown == "x\\u{\(String(value, radix: 16, uppercase: true))}y")
            #expect(!shown.unicodeScalars.contains(where: TerminalText.isUnsafe))
        }
        for value: UInt32 in [0x20, 0x7E, 0xA0, 0x200E, 0x200F, 0x2027, 0x202F, 0x2065, 0x206A, 0xFFFD] {
            #expect(!TerminalText.isUnsafe(try #require(Unicode.Scalar(value))), "U+\(String(value, radix: 16))")
        }
    }

    @Test("every string of an answer is made safe, at any depth; members' names and other values are kept")
    func answers() {
        let answer: JSONValue = [
            "location": ["name": "a\u{1B}b", "lat": 1.5],
            "alerts": [["message": "x\u{202E}y", "seq": 3], "\r"],
            "ok": true, "none": .null,
        ]
        #expect(
            answer.terminalSafe == [
                "location": ["name": "a\\u{1B}b", "lat": 1.5],
                "alerts": [["message": "x\\u{202E}y", "seq": 3], "\\u{D}"],
                "ok": true, "none": .null,
            ])
        #expect(Context.shown(answer, json: true) == answer, "--json prints the answer exactly")
        #expect(Context.shown(answer, json: false) == answer.terminalSafe)
    }

    @Test("a favorite is found by its name as typed and as shown, and asked for by its id")
    func favoriteByName() throws {
        let favorites: [JSONValue] = [["id": "fav-7", "name": "Home\u{1B}[31m"], ["id": "fav-8", "name": "Work"]]
        #expect(try PlaceArgument.params("home\u{1B}[31m", favorites: favorites) == ["favorite": "fav-7"])
        #expect(try PlaceArgument.params("Home\\u{1B}[31m", favorites: favorites) == ["favorite": "fav-7"])
        #expect(try PlaceArgument.params("fav-8", favorites: favorites) == ["favorite": "fav-8"])
        #expect(try PlaceArgument.params("Paris", favorites: favorites) == ["city": "Paris"])
    }

    @Test("an error quoting input is printed on standard error with each line safe, its line breaks kept")
    func errors() {
        let written = Mutex<[(String, Bool)]>([])
        let output = Output(isTerminal: true, environment: [:]) { text, toError in
            written.withLock { $0.append((text, toError)) }
            return true
        }
        output.error("weatherd now: no place \u{1B}]0;x\u{07}\nusage: weatherd now")
        let lines = written.withLock { $0 }
        #expect(lines.count == 1 && lines.first?.1 == true)
        #expect(lines.first?.0 == "weatherd now: no place \\u{1B}]0;x\\u{7}\nusage: weatherd now\n")
        #expect(CLI.unknownCommand("\u{1B}[2Jnow").hasPrefix("weatherd: unknown command \\u{1B}[2Jnow"))
    }
}
