/// What a caller can do about a refused request, named apart from the words for it: each face (JSON-RPC
/// and the commands built on it, MCP) says it in its own terms, with its own method or tool names.
package enum Remedy: String, Sendable, Equatable, CaseIterable {
    /// Look at the favorites' ids and names.
    case listFavorites
    /// Check the spelling, or find the place with the geocoder.
    case searchCities
    /// Remove favorites to make room for another.
    case removeFavorites
    /// Set the current location, or name a place instead.
    case setLocation

    /// The advice in the terms of JSON-RPC and the commands built on it (their method names, and the flags
    /// of whoever runs weatherd); the MCP face words its own.
    package var rpcAdvice: String {
        switch self {
        case .listFavorites: "favorites/list shows the ids and names."
        case .searchCities: "Check the spelling, or find the place with cities/search."
        case .removeFavorites: "Remove some with favorites/remove first (or raise --max-favorites)."
        case .setLocation: "Set one with location/set first."
        }
    }
}
