/// A command the state refuses: a stable `kind` and a message that says what to do.
public struct DomainError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case notFound = "not_found"
        case alreadyExists = "already_exists"
        case noLocation = "no_location"
        case tooManyFavorites = "too_many_favorites"
    }

    private let code: Code
    /// The human message.
    public let message: String

    /// The stable machine-readable kind, e.g. `not_found`.
    public var kind: String { code.rawValue }

    public var description: String { message }

    /// No favorite has this id.
    public static func favoriteNotFound(_ id: String) -> DomainError {
        DomainError(code: .notFound, message: "No favorite has id \(id); favorites/list shows the ids.")
    }

    /// Geocoding found no place of this name.
    public static func placeNotFound(_ name: String) -> DomainError {
        DomainError(
            code: .notFound, message: "No place called \"\(name)\" was found; check the spelling or try cities/search.")
    }

    /// The thing to add is there already.
    public static func alreadyExists(_ message: String) -> DomainError {
        DomainError(code: .alreadyExists, message: message)
    }

    /// Adding would pass the maximum number of favorites.
    public static func tooManyFavorites(_ maximum: Int) -> DomainError {
        DomainError(
            code: .tooManyFavorites,
            message:
                "There are \(maximum) favorites, the most weatherd keeps (--max-favorites); remove some with favorites/remove first."
        )
    }

    /// No current location is known.
    public static let noLocation = DomainError(
        code: .noLocation, message: "No current location is set; set one with location/set first.")
}
