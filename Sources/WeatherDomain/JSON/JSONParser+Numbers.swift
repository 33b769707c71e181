extension JSONParser {
    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail(.syntax, "invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw fail(.syntax, "leading zero in number") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        var integral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail(.syntax, "a digit must follow '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail(.syntax, "invalid exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let literal = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
        if integral, literal.count <= 20, let value = integer(literal) { return .int(value) }
        let text = String(decoding: literal, as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONParseError(
                kind: .numberOutOfRange, offset: start, message: "number out of range at byte \(start)")
        }
        return .double(value)
    }

    func integer(_ literal: UnsafeRawBufferPointer) -> Int64? {
        var negative = false
        var position = 0
        if literal[0] == UInt8(ascii: "-") {
            negative = true
            position = 1
        }
        var value: Int64 = 0
        while position < literal.count {
            let digit = Int64(literal[position] - 0x30)
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = next
            position += 1
        }
        return value
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
