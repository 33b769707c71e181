/// A command the state refuses: a stable `kind`, what happened, and what the caller can do about it.
package struct DomainError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case notFound = "not_found"
        case alreadyExists = "already_exists"
        case noLocation = "no_location"
        case tooManyFavorites = "too_many_favorites"
    }

    private let code: Code
    /// What happened, in one or more sentences that suit every face; the advice is `remedy`'s.
    package let situation: String
    /// What the caller can do, for each face to word in its own terms; nil when `situation` says it all.
    package let remedy: Remedy?

    /// The stable machine-readable kind, e.g. `not_found`.
    package var kind: String { code.rawValue }

    /// The situation and what to do, in the terms of JSON-RPC and the commands built on it.
    package var message: String { remedy.map { "\(situation) \($0.rpcAdvice)" } ?? situation }

    package var description: String { message }

    /// No favorite has this id or name.
    package static func favoriteNotFound(_ idOrName: String) -> DomainError {
        DomainError(
            code: .notFound, situation: "No favorite has the id or name \"\(idOrName)\".", remedy: .listFavorites)
    }

    /// Geocoding found no place of this name.
    package static func placeNotFound(_ name: String) -> DomainError {
        DomainError(code: .notFound, situation: "No place called \"\(name)\" was found.", remedy: .searchCities)
    }

    /// The thing to add is there already.
    package static func alreadyExists(_ message: String) -> DomainError {
        DomainError(code: .alreadyExists, situation: message, remedy: nil)
    }

    /// Adding would pass the maximum number of favorites.
    package static func tooManyFavorites(_ maximum: Int) -> DomainError {
        DomainError(
            code: .tooManyFavorites, situation: "There are \(maximum) favorites, the most weatherd keeps.",
            remedy: .removeFavorites)
    }

    /// No current location is known.
    package static let noLocation = DomainError(
        code: .noLocation, situation: "No current location is set.", remedy: .setLocation)

    /// No current location is set, and weatherd could not find one itself (`--auto-location`): `why` says what
    /// it asked and what each said.
    package static func noLocationFound(because why: String) -> DomainError {
        DomainError(
            code: .noLocation, situation: "No current location is set, and none was found: \(why).",
            remedy: .setLocation)
    }
}
