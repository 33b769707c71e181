extension JSONParser {
    /// Steps over one value, checking only that its strings end and its brackets balance.
    mutating func skipValue() throws(JSONParseError) {
        guard index < bytes.count else { throw fail(.syntax, "unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return try skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            break
        default:
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return
                default: index += 1
                }
            }
            return
        }
        switch Self.skipBalanced(bytes, from: index, maxDepth: maxDepth) {
        case .end(let end): index = end
        case .tooDeep: throw fail(.tooDeep, "nesting deeper than \(maxDepth) levels")
        case .unterminatedString: throw fail(.syntax, "unterminated string")
        case .unterminated: throw fail(.syntax, "unterminated array or object")
        }
    }

    mutating func skipString() throws(JSONParseError) {
        guard let end = Self.stringEnd(bytes, from: index) else { throw fail(.syntax, "unterminated string") }
        index = end
    }

    /// Where a stepped-over array or object ends, or why it does not.
    private enum Skipped {
        case end(Int)
        case tooDeep
        case unterminatedString
        case unterminated
    }

    /// What each byte means to the skipping scans: 0 nothing, 1 a quote, 2 a backslash, 3 an opening bracket,
    /// 4 a closing one. One load per byte decides, which is what makes stepping over the large payloads of
    /// a log's fetches cheap.
    private static let skipClasses: [UInt8] = {
        var classes = [UInt8](repeating: 0, count: 256)
        classes[0x22] = 1
        classes[0x5C] = 2
        for open in [UInt8(ascii: "{"), UInt8(ascii: "[")] { classes[Int(open)] = 3 }
        for close in [UInt8(ascii: "}"), UInt8(ascii: "]")] { classes[Int(close)] = 4 }
        return classes
    }()

    /// The index after the array or object that begins at `start` (its strings closed, its brackets matched).
    private static func skipBalanced(_ bytes: UnsafeRawBufferPointer, from start: Int, maxDepth: Int) -> Skipped {
        skipClasses.withUnsafeBufferPointer { classes in
            let count = bytes.count
            var index = start
            var level = 0
            while index < count {
                switch classes[Int(bytes[index])] {
                case 1:
                    guard let end = stringEnd(bytes, from: index, classes: classes) else { return .unterminatedString }
                    index = end
                    continue
                case 3:
                    level += 1
                    if level >= maxDepth { return .tooDeep }
                case 4:
                    level -= 1
                    if level == 0 { return .end(index + 1) }
                default:
                    break
                }
                index += 1
            }
            return .unterminated
        }
    }

    /// The index after the string whose opening quote is at `start`; nil when it does not end.
    private static func stringEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        skipClasses.withUnsafeBufferPointer { stringEnd(bytes, from: start, classes: $0) }
    }

    private static func stringEnd(
        _ bytes: UnsafeRawBufferPointer, from start: Int, classes: UnsafeBufferPointer<UInt8>
    ) -> Int? {
        let count = bytes.count
        var index = start + 1
        while index < count {
            switch classes[Int(bytes[index])] {
            case 1: return index + 1
            case 2: index += 2
            default: index += 1
            }
        }
        return nil
    }
}
