/// Builds provider request URLs from a configured base, a path and query items.
///
/// Pure string work (no Foundation) so the URLs are byte-identical on every platform and can be
/// compared exactly in tests and in the audit log.
enum RequestURL {
    /// The base URL without trailing slashes, so `http://proxy/owm/` and `http://proxy/owm` join alike.
    static func base(_ url: String) -> String {
        var text = Substring(url)
        while text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }

    /// `base + path + ?name=value&…`; values must already be URL-safe (see `encode`).
    static func make(_ base: String, _ path: String, _ query: [(String, String)]) -> String {
        base + path + "?" + query.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// Percent-encodes every byte outside RFC 3986's unreserved set.
    ///
    /// Stricter than Foundation's query allowance on purpose: `&`, `=`, `+` and `;` in a place
    /// name or an API key must never be read as query syntax by a proxy or by the provider.
    static func encode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A coordinate with at most 4 decimals (about 11 m), no exponent and no trailing zeros.
    ///
    /// `52.52` stays `52.52` rather than Swift's `52.52` or `5.252e1` depending on magnitude, so
    /// identical places give identical URLs (and identical cache and audit entries).
    static func coordinate(_ value: Double) -> String {
        guard let units = Int64(exactly: (value * 10_000).rounded()) else {
            // Only a non-finite or absurd value gets here; callers validate coordinates first.
            return "\(value)"
        }
        let magnitude = units.magnitude
        var text = String(magnitude / 10_000)
        var fraction = magnitude % 10_000
        if fraction != 0 {
            var width = 4
            while fraction % 10 == 0 {
                fraction /= 10
                width -= 1
            }
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: width - digits.count) + digits
        }
        return units < 0 ? "-" + text : text
    }
}
