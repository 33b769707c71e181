import Providers
import Synchronization
import WeatherDomain

/// How much of a forecast `get_forecast` returns.
enum ForecastDetail: String, CaseIterable, Sendable {
    case summary, full
}

extension ServiceContext {
    /// `tools/call`: runs a tool through the native method of the same meaning (same actors, same
    /// events), and answers a `CallToolResult`; weatherd's application errors become `isError` results.
    func callTool(_ request: MCPRequest, _ call: MethodCall, native: [String: MethodHandler]) async throws
        -> Completion
    {
        let name = try call.params.string("name")
        guard let tool = MCPTool.named(name) else { throw MCPErrors.unknownTool(name) }
        let started: Completion
        do {
            let arguments = try FieldReader(call.params.members["arguments"], path: "arguments", allowAbsent: true)
            try arguments.rejectUnknown(tool.argumentNames)
            started = try await startTool(tool.name, arguments, request, call, native: native)
        } catch {
            let failure = try MCPToolResult.failure(error, version: request.version)
            return { request.result(failure) }
        }
        return {
            do {
                return request.result(MCPToolResult.success(try await started(), version: request.version))
            } catch {
                return request.result(try MCPToolResult.failure(error, version: request.version))
            }
        }
    }

    /// Checks a tool's arguments and begins it; the completion produces its structured result.
    private func startTool(
        _ name: String, _ a: FieldReader, _ request: MCPRequest, _ call: MethodCall, native: [String: MethodHandler]
    ) async throws -> Completion {
        let run: @Sendable (String, [String: JSONValue]) async throws -> Completion = { method, params in
            guard let handler = native[method] else { throw RPCError.internalError }
            let reader = try FieldReader(.object(params), path: "arguments")
            return try await handler.begin(MethodCall(id: call.id, params: reader, cause: call.cause, corr: nil))
        }
        switch name {
        case "get_current_weather", "get_forecast":
            let forecast = name == "get_forecast"
            let days = forecast ? Int(try a.int("days", in: 1...5) ?? 5) : 5
            let detail = forecast ? try a.choice("detail", as: ForecastDetail.self) ?? .summary : .full
            let given = a.members.filter { ["city", "lat", "lon", "units", "maxAgeSeconds"].contains($0.key) }
            let favorite = try a.nonEmptyString("favorite")
            return {
                var params = given
                if let favorite { params["favoriteId"] = .string(await favoriteID(favorite)) }
                let value = try await run(forecast ? "weather/forecast" : "weather/current", params)()
                return forecast ? MCPToolResult.trim(value, days: days, detail: detail) : value
            }
        case "search_cities":
            return try await run("cities/search", a.members)
        case "list_favorites":
            return try await run("favorites/list", a.members)
        case "get_alerts":
            return try await run("alerts/list", a.members)
        case "add_favorite":
            return try await run("favorites/add", a.members)
        case "remove_favorite":
            // Decided now, on the projected state, like `favorites/remove`: a change sent after it is decided after it.
            let favorite = try a.string("favorite")
            let toolCall = MethodCall(id: call.id, params: a, cause: call.cause, corr: nil)
            return try await favorites.change(toolCall) { state in
                try FavoritesDecisions.remove(state, id: state.favorite(idOrName: favorite)?.id ?? favorite)
            } unchanged: { _ in
                .null
            }
        default:
            let scope = try a.choice("scope", as: RefreshScope.self) ?? .all
            return { try await refreshWithProgress(scope, request: request, cause: call.cause) }
        }
    }

    /// A favorite's id from its id or its name (case-insensitive); the text itself when none matches,
    /// so the native method answers `not_found`.
    private func favoriteID(_ text: String) async -> String {
        await favorites.barrier()?.settled()
        return await favorites.read { $0.favorite(idOrName: text)?.id ?? text }
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
            try await refresh(scope, cause: cause) { result, done, total in
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
