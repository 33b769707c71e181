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
            "refresh": MethodHandler(params: ["scope"]) { [location] call in
                let scope = try call.params.choice("scope", as: RefreshScope.self) ?? .all
                return Completion { try await location.refresh(scope, only: nil, cause: call.cause, onPlace: nil).json }
            },
        ]
    }

    /// `location/set`'s params (MCP's `set_location` takes the same): `lat` and `lon`, or `address`.
    static func newLocation(_ p: FieldReader) throws(FieldError) -> NewLocation {
        let lat = try p.double("lat", in: -90...90)
        let lon = try p.double("lon", in: -180...180)
        if let address = try p.nonEmptyString("address") {
            guard lat == nil, lon == nil else {
                throw FieldError(path: p.path, problem: "must give either address, or lat and lon")
            }
            return .address(address)
        }
        guard let lat, let lon else { throw FieldError(path: p.path, problem: "needs lat and lon, or address") }
        return .coordinates(lat: lat, lon: lon)
    }
}
