import Testing
import WeatherEngine
import WeatherService

@Suite("Line splitter")
struct LineSplitterTests {
    static func split(_ chunks: [[UInt8]], max: Int = 8) -> [LineSplitter.Item] {
        var splitter = LineSplitter(maxLineBytes: max)
        var items: [LineSplitter.Item] = []
        for chunk in chunks { chunk.withUnsafeBytes { splitter.feed($0) { items.append($0) } } }
        splitter.finish { items.append($0) }
        return items
    }

    @Test("splits on LF, drops a CR before it, and keeps a last line without newline")
    func basic() {
        #expect(
            Self.split([Array("ab\r\ncd\n\nef".utf8)]) == [
                .line(Array("ab".utf8)), .line(Array("cd".utf8)), .line([]), .line(Array("ef".utf8)),
            ])
    }

    @Test("lines split across chunks at every point are reassembled")
    func chunks() {
        let input = Array("hello\nworld!\n".utf8)
        for cut in 0...input.count {
            #expect(
                Self.split([Array(input[..<cut]), Array(input[cut...])], max: 16) == [
                    .line(Array("hello".utf8)), .line(Array("world!".utf8)),
                ])
        }
    }

    @Test("a line over the limit is reported once and skipped, at the limit it passes")
    func limit() {
        #expect(Self.split([Array("12345678\n".utf8)]) == [.line(Array("12345678".utf8))])
        #expect(Self.split([Array("12345678\r\n".utf8)]) == [.line(Array("12345678".utf8))])
        let items = Self.split([Array("123456789\nok\n".utf8)])
        #expect(items == [.tooLong(length: 9), .line(Array("ok".utf8))])
    }

    @Test("a huge line fed in pieces never grows the buffer past the limit")
    func huge() {
        var chunks = Array(repeating: [UInt8](repeating: UInt8(ascii: "x"), count: 1000), count: 100)
        chunks.append(Array("\nnext\n".utf8))
        let items = Self.split(chunks, max: 64)
        #expect(items == [.tooLong(length: 100_000), .line(Array("next".utf8))])
    }
}
