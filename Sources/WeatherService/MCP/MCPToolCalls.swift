import Synchronization
import WeatherDomain
import WeatherEngine

extension MCPController {
    /// `tools/call`: runs a tool through the native method of the same meaning (same actors, same
    /// events), and answers a `CallToolResult`; weatherd's application errors become `isError` results.
    func callTool(_ request: MCPRequest, _ call: MethodCall) async throws -> Completion {
        let name = try call.params.string("name")
        guard let tool = MCPTool.listedNamed(name) else { throw MCPErrors.unknownTool(name) }
        if MCPTool.summarized.contains(name) { return try await callSummarizedTool(name, request, call) }
        if MCPTool.settingsNames.contains(name) { return try await callSettingsTool(name, request, call) }
        let started: Completion
        do {
            let arguments = try FieldReader(call.params.members["arguments"], path: "arguments", allowAbsent: true)
            try arguments.rejectUnknown(tool.argumentNames)
            started = try await startTool(tool.name, arguments, request, call)
        } catch {
            let failure = try MCPToolResult.failure(error, version: request.version)
            return Completion { request.result(failure) }
        }
        return Completion {
            do {
                return request.result(MCPToolResult.success(try await started(), version: request.version))
            } catch {
                return request.result(try MCPToolResult.failure(error, version: request.version))
            }
        }
    }

    /// Checks a tool's arguments and begins it through the engine's API, as the JSON-RPC face does;
    /// the completion produces its structured result.
    private func startTool(_ name: String, _ a: FieldReader, _ request: MCPRequest, _ call: MethodCall) async throws
        -> Completion
    {
        let origin = Origin(cause: call.cause)
        switch name {
        case "get_current_weather":
            let place = try PlaceParams(a)
            return engine.current(place.place, units: place.units, maxAgeMs: place.maxAgeMs, origin: origin)
        case "get_forecast":
            let place = try PlaceParams(a)
            let shape = try PlaceParams.forecastShape(a, defaultDetail: .summary)
            return try engine.forecast(
                place.place, units: place.units, maxAgeMs: place.maxAgeMs, days: shape.days ?? 5, detail: shape.detail,
                type: shape.type, origin: origin)
        case "search_cities":
            let limit = Int(try a.int("limit", in: 1...5) ?? 5)
            return try engine.searchCities(try a.string("query"), limit: limit, origin: origin)
        case "list_favorites":
            return await engine.listFavorites(try PageParams.read(a, defaultLimit: 100))
        case "add_favorite":
            return try await engine.addFavorite(try FavoritesController.newFavorite(a), origin: origin)
        case "remove_favorite":
            return try await engine.removeFavorite(try a.string("favorite"), origin: origin)
        default:
            let scope = try a.choice("scope", as: RefreshScope.self) ?? .all
            return Completion { try await refreshWithProgress(scope, request: request, cause: call.cause) }
        }
    }

    /// `refresh_weather`: the native refresh, with a `notifications/progress` per finished place when
    /// the request has a progress token, all sent before the result; after 55 s it answers with what
    /// is done and counts the rest as pending.
    private func refreshWithProgress(_ scope: RefreshScope, request: MCPRequest, cause: String) async throws
        -> JSONValue
    {
        let progress = RefreshProgress()
        let pushes = self.pushes
        let work = Task {
            try await engine.refresh(scope, cause: cause) { result, done, total in
                progress.record(result, total: total) {
                    guard let token = request.progressToken else { return }
                    var params: [String: JSONValue] = [
                        "progressToken": token, "progress": .int(Int64(done)), "total": .int(Int64(total)),
                    ]
                    if request.version.hasAnnotations {
                        let place = result["name"]?.stringValue ?? result["place"]?.stringValue ?? "place"
                        params["message"] = .string("\(place): \(result["ok"] == true ? "refreshed" : "failed")")
                    }
                    pushes.notify("notifications/progress", .object(params))
                }
            }
        }
        let outcome = await withTaskCancellationHandler {
            await withDeadline(.seconds(55)) {
                Optional(await work.result)
            } onTimeout: {
                nil
            }
        } onCancel: {
            progress.close()
            work.cancel()
        }
        progress.close()
        if Task.isCancelled { throw CancellationError() }
        if let outcome { return try outcome.get() }
        work.cancel()
        let (results, total) = progress.snapshot
        return .object([
            "scope": .string(scope.rawValue), "results": .array(results), "pending": .int(Int64(total - results.count)),
        ])
    }
}

/// The places a refresh has finished, and whether progress may still be sent (not after the answer).
private final class RefreshProgress: Sendable {
    private let state = Mutex((results: [JSONValue](), total: 0, open: true))

    /// Records a finished place and, while the request is unanswered, sends its progress.
    func record(_ result: JSONValue, total: Int, notify: () -> Void) {
        state.withLock { state in
            guard state.open else { return }
            state.results.append(result)
            state.total = total
            notify()
        }
    }

    /// No more progress: the answer is on its way.
    func close() { state.withLock { $0.open = false } }

    var snapshot: ([JSONValue], Int) { state.withLock { ($0.results, $0.total) } }
}
