import Synchronization
import Testing
import WeatherDomain
import WeatherEngine
import WeatherTesting

@testable import WeatherService

/// A settings facet that is not the engine: it keeps the settings in memory and records the calls.
private final class StandInSettings: SettingsFacet {
    let settings = Mutex(SettingsChange(units: .metric))
    let origins = Mutex<[Origin]>([])

    func getSettings() async -> Completion<SettingsChange> {
        let current = settings.withLock { $0 }
        return Completion { current }
    }

    func changeSettings(_ edit: SettingsEdit, origin: Origin) async throws -> Completion<SettingsChange> {
        origins.withLock { $0.append(origin) }
        let changed = settings.withLock { settings in
            if let units = edit.units { settings.units = units }
            return settings
        }
        return Completion { changed }
    }
}

@Suite("The engine's facets and the JSON-RPC face over them")
struct FacetTests {
    @Test("a controller holds one facet: over a stand-in, settings/get and settings/set answer its values as JSON")
    func controllerOverStandIn() async throws {
        let facet = StandInSettings()
        let methods = SettingsController(settings: facet).methods
        let get = try #require(methods["settings/get"])
        let call = MethodCall(id: 1, params: try FieldReader(.object([:]), path: "params"), cause: "t/rpc:1")
        let before = try await get.begin(call)()
        #expect(before["units"] == "metric")
        #expect(before["resolved"]?["temperature"] == "°C", "the face adds the resolved unit of each quantity")

        let set = try #require(methods["settings/set"])
        #expect(set.changesState)
        let change = MethodCall(
            id: 2, params: try FieldReader(.object(["units": "imperial"]), path: "params"), cause: "t/rpc:2",
            corr: "c-1")
        let after = try await set.begin(change)()
        #expect(after["units"] == "imperial")
        #expect(after["resolved"]?["windSpeed"] == "mph")
        #expect(facet.origins.withLock { $0 } == [Origin(cause: "t/rpc:2", corr: "c-1")])
    }

    @Test("engine failures carry kinds; the JSON-RPC face gives each its code and the data a client acts on")
    func engineErrorsOnTheWire() {
        let unsupported = RPCError(
            EngineError.unsupportedForecastType(
                provider: "OpenWeatherMap", requested: .hourly, supported: [.threeHourly, .daily]))
        #expect(unsupported.rpcCode == -32602)
        #expect(unsupported.kind == "unsupported_forecast_type")
        #expect(unsupported.json["data"]?["supported"] == ["threeHourly", "daily"])
        #expect(unsupported.json["data"]?["requested"] == "hourly")

        let conflict = RPCError(
            EngineError.commandConflict(commandId: "c-9", earlierMethod: "favorites/add", method: "settings/set"))
        #expect(conflict.rpcCode == -32602)
        #expect(conflict.message.hasPrefix("Invalid params: commandId \"c-9\" was used for favorites/add"))
        #expect(conflict.json["data"]?["method"] == "favorites/add")

        #expect(RPCError(EngineError.logKeptChanging).rpcCode == -32600)
        #expect(RPCError(EngineError.inconsistent("a test")) == .internalError, "a bug's detail stays off the wire")
        #expect(RPCError(DomainError.noLocation).rpcCode == ApplicationErrorCode.code(for: "no_location"))
        let startup = RPCError(
            StartupError(
                "refusing to start", kind: "log_damaged",
                damage: .init(file: "events.jsonl", line: nil, seq: 7, offset: 300)))
        #expect(startup.rpcCode == 1010)
        #expect(startup.json["data"]?["seq"] == 7)
        #expect(startup.json["data"]?["line"] == nil, "a line is named only when it is known")
    }
}
