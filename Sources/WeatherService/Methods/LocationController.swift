import WeatherDomain
import WeatherEngine

/// `location/set` and `refresh`.
struct LocationController: Controller {
    let engine: Engine

    var methods: [String: MethodHandler] {
        [
            "location/set": MethodHandler(changesState: true, params: ["lat", "lon", "address"]) { [engine] call in
                let p = call.params
                let lat = try p.double("lat", in: -90...90)
                let lon = try p.double("lon", in: -180...180)
                if let address = try p.nonEmptyString("address") {
                    guard lat == nil, lon == nil else {
                        throw FieldError(path: "params", problem: "must give either address, or lat and lon")
                    }
                    return try await engine.setLocation(.address(address), origin: call.origin)
                }
                guard let lat, let lon else {
                    throw FieldError(path: "params", problem: "needs lat and lon, or address")
                }
                return try await engine.setLocation(.coordinates(lat: lat, lon: lon), origin: call.origin)
            },
            "refresh": MethodHandler(params: ["scope"]) { [engine] call in
                let scope = try call.params.choice("scope", as: RefreshScope.self) ?? .all
                return Completion { try await engine.refresh(scope, cause: call.cause) }
            },
        ]
    }
}
