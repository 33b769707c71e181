/// Secrets: made from the system's generator, compared in constant time.
package enum Secret {
    /// Whether two secrets are equal, compared in time that depends only on their lengths.
    package static func equal(_ secret: [UInt8], _ given: [UInt8]) -> Bool {
        var difference = UInt8(given.count == secret.count ? 0 : 1)
        for index in secret.indices { difference |= secret[index] ^ (index < given.count ? given[index] : 0) }
        return difference == 0
    }

    /// `bytes` random bytes from the system's generator, in hex: a secret, or a name no one can guess.
    package static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes * 2)
        for _ in 0..<bytes {
            let byte = UInt8.random(in: 0...255, using: &generator)
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
