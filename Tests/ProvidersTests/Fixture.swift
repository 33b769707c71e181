import Foundation
import Providers
import Testing

/// The recorded response bodies in `Fixtures/`, copied into the test bundle.
enum Fixture {
    static func bytes(_ name: String, ext: String = "json") throws -> [UInt8] {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Fixtures"),
            "missing fixture \(name).\(ext)")
        return [UInt8](try Data(contentsOf: url))
    }
}

/// Whether two doubles agree to within `tolerance` (unit conversions are not exact in binary).
func close(_ actual: Double?, _ expected: Double, tolerance: Double = 1e-9) -> Bool {
    guard let actual else { return false }
    return abs(actual - expected) <= tolerance
}

/// The error `body` throws, or nil when it succeeds.
func failure(_ body: () throws(ProviderError) -> Void) -> ProviderError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}
