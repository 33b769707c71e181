import WeatherDomain
import WeatherEngine

/// `location/get`, `location/set`, `location/clear` and `refresh`.
struct LocationController: Controller {
    let location: any LocationFacet

    var methods: [String: MethodHandler] {
        [
            "location/get": MethodHandler(params: ["autoLocation"]) { [location] call in
                let auto = try call.params.optionalBool("autoLocation")
                return await location.currentLocation(autoLocation: auto, origin: call.origin).map { $0.answer }
            },
            "location/set": MethodHandler(changesState: true, params: ["lat", "lon", "address"]) { [location] call in
                try await location.setLocation(try Self.newLocation(call.params), origin: call.origin).map {
                    $0.answer
                }
            },
            "location/clear": MethodHandler(changesState: true) { [location] call in
                try await location.clearLocation(origin: call.origin).map { CommandResult.locationCleared($0) }
            },
            "refresh": MethodHandler(params: PlaceParams.names.union(["scope"])) { [location] call in
                let scope = try call.params.choice("scope", as: RefreshScope.self)
                // A place named: everything weatherd keeps for it; else the places of `scope`.
                guard PlaceParams.names.contains(where: call.params.has) else {
                    return Completion {
                        try await location.refresh(scope ?? .all, only: nil, cause: call.cause, onPlace: nil).json
                    }
                }
                guard scope == nil else {
                    throw FieldError(path: call.params.path, problem: "must give either scope or a place, not both")
                }
                let place = try PlaceParams(call.params).place
                return Completion { try await location.refresh(place, cause: call.cause).json }
            },
        ]
    }

    /// `location/set`'s params (MCP's `set_location` takes the same): `lat` and `lon`, or `address`.
    static func newLocation(_ p: FieldReader) throws(FieldError) -> NewLocation {
        if let address = try p.nonEmptyString("address") {
            guard !p.has("lat"), !p.has("lon") else {
                throw FieldError(path: p.path, problem: "must give either address, or lat and lon")
            }
            return .address(address)
        }
        guard let point = try p.coordinates() else {
            throw FieldError(path: p.path, problem: "needs lat and lon, or address")
        }
        return .coordinates(point)
    }
}
