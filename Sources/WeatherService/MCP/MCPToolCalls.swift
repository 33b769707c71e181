import Synchronization
import WeatherDomain
import WeatherEngine
import WeatherRuntime

extension MCPController {
    /// `tools/call`: runs a tool through the engine's typed API, as the native method of the same meaning
    /// does (same actors, same events), and answers a `CallToolResult`: a one-line summary, then the JSON,
    /// within `MCPAnswer.maxTextCharacters`; weatherd's application errors become `isError` results.
    func callTool(_ request: MCPRequest, _ call: MethodCall) async throws -> Completion<JSONValue> {
        let name = try call.params.string("name")
        guard let tool = MCPTool.listedNamed(name) else { throw MCPErrors.unknownTool(name) }
        let run: MCPToolRun
        do {
            let arguments = try FieldReader(call.params.members["arguments"], path: "arguments", allowAbsent: true)
            try arguments.rejectUnknown(tool.argumentNames)
            run = try await startTool(tool.name, arguments, request, call)
        } catch {
            let failure = try MCPToolResult.failure(error, version: request.version)
            return Completion { request.result(failure) }
        }
        return Completion {
            do {
                return request.result(MCPToolResult.success(try await run(), version: request.version))
            } catch {
                return request.result(try MCPToolResult.failure(error, version: request.version))
            }
        }
    }

    /// Checks a tool's arguments and begins it: each group of tools starts its own and passes on the others.
    private func startTool(_ name: String, _ a: FieldReader, _ request: MCPRequest, _ call: MethodCall) async throws
        -> MCPToolRun
    {
        let origin = Origin(cause: call.cause)
        if let run = try startWeatherTool(name, a, origin) { return run }
        if let run = try await startFavoritesTool(name, a, request, call) { return run }
        if let run = try await startLocationTool(name, a, origin) { return run }
        if let run = try await startSettingsTool(name, a, origin) { return run }
        if let run = try startOfficialTool(name, a, origin) { return run }
        if let run = try startPastTool(name, a, origin) { return run }
        if let run = try startConfidenceTool(name, a, origin) { return run }
        throw MCPErrors.unknownTool(name)
    }

    /// Begins one of the weather tools (current, forecast, city search); nil for another tool.
    private func startWeatherTool(_ name: String, _ a: FieldReader, _ origin: Origin) throws -> MCPToolRun? {
        let clock = engine.clock
        switch name {
        case "get_current_weather":
            let place = try PlaceParams(a)
            let detail = try a.choice("detail", as: MCPDetail.self) ?? .standard
            let answer = engine.current(place.place, units: place.units, maxAgeMs: place.maxAgeMs, origin: origin)
            return { [engine] in
                let current = try await answer()
                var summary = MCPSummary.current(current, now: clock.timestamp())
                // Only from a climate already cached: the summary never costs an upstream call of its own.
                if let normal = await engine.todayAgainstNormal(current) {
                    summary +=
                        "; today's high \(PastWire.degrees(normal.high, current.units)) "
                        + "\(current.units.temperature.rawValue) is \(PastWire.anomalyText(normal.anomaly, current.units))"
                        + " for \(PastWire.dayName(month: normal.month, day: normal.day))"
                }
                summary += await Self.approximateNote(place.place, engine: engine, origin: origin)
                return MCPAnswer(summary, detail.keep(current.json))
            }
        case "get_forecast":
            let place = try PlaceParams(a)
            let detail = try a.choice("detail", as: MCPDetail.self) ?? .standard
            let range = Int64(ForecastDetail.days.lowerBound)...Int64(ForecastDetail.days.upperBound)
            let days = Int(try a.int("days", in: range) ?? 5)
            let type = try a.choice("type", as: ForecastType.self) ?? .threeHourly
            let answer = try engine.forecast(
                place.place, units: place.units, maxAgeMs: place.maxAgeMs, days: days, detail: detail.forecast,
                type: type, origin: origin)
            return { [engine] in
                let forecast = try await answer()
                let note = await Self.approximateNote(place.place, engine: engine, origin: origin)
                return MCPAnswer(
                    MCPSummary.forecast(forecast, now: clock.timestamp()) + note, detail.keep(forecast.json))
            }
        case "search_cities":
            let limit = Int(try a.int("limit", in: 1...5) ?? 5)
            let query = try a.string("query")
            let answer = try engine.searchCities(query, limit: limit, origin: origin)
            return {
                let candidates = try await answer()
                return MCPAnswer(
                    MCPSummary.candidates(candidates, query: query.trimmingWhitespace), candidatesJSON(candidates))
            }
        default:
            return nil
        }
    }

    /// Begins one of the favorites tools or `refresh_weather`; nil for another tool.
    private func startFavoritesTool(_ name: String, _ a: FieldReader, _ request: MCPRequest, _ call: MethodCall)
        async throws -> MCPToolRun?
    {
        let origin = Origin(cause: call.cause)
        switch name {
        case "list_favorites":
            let page = try PageParams.read(a, defaultLimit: 100)
            let answer = await engine.listFavorites()
            return {
                let favorites = try await answer()
                let cut = favorites.cut(page)
                return MCPAnswer(
                    MCPSummary.favorites(favorites[cut.shown], nextCursor: cut.nextCursor), cut.json,
                    page: MCPAnswer.Page(member: "favorites", offset: page.offset))
            }
        case "add_favorite":
            let answer = try await engine.addFavorite(try FavoritesController.newFavorite(a), origin: origin)
            return {
                let favorite = try await answer()
                return MCPAnswer(MCPSummary.added(favorite), favoriteJSON(favorite))
            }
        case "remove_favorite":
            let answer = try await engine.removeFavorite(try a.string("favorite"), origin: origin)
            return {
                let favorite = try await answer()
                return MCPAnswer(MCPSummary.removed(favorite), favoriteJSON(favorite))
            }
        case "refresh_weather":
            let scope = try a.choice("scope", as: RefreshScope.self) ?? .all
            return {
                let refreshed = try await refreshWithProgress(scope, request: request, cause: call.cause)
                return MCPAnswer(MCPSummary.refresh(refreshed.results, pending: refreshed.pending ?? 0), refreshed.json)
            }
        default:
            return nil
        }
    }

    /// `refresh_weather`: the native refresh, with a `notifications/progress` per finished place when
    /// the request has a progress token, all sent before the result; after 55 s it answers with what
    /// is done and counts the rest as pending.
    private func refreshWithProgress(_ scope: RefreshScope, request: MCPRequest, cause: String) async throws
        -> RefreshToolAnswer
    {
        let progress = RefreshProgress()
        let pushes = self.pushes
        let engine = self.engine
        // The refresh runs in the deadline's own task: at 55 s, or when this request is cancelled, it is
        // cancelled and the answer says what is done.
        let refresh: @Sendable () async -> Result<RefreshReport, any Error>? = {
            do {
                return .success(
                    try await Self.refresh(
                        engine, scope, request: request, cause: cause, progress: progress, pushes: pushes))
            } catch {
                return .failure(error)
            }
        }
        let outcome = await withDeadline(engine.clock.deadline(after: .seconds(55)), clock: engine.clock) {
            await refresh()
        } onTimeout: {
            nil
        }
        progress.close()
        if Task.isCancelled { throw CancellationError() }
        if let outcome { return RefreshToolAnswer(report: try outcome.get(), pending: nil) }
        let (results, total) = progress.snapshot
        return RefreshToolAnswer(report: RefreshReport(scope: scope, results: results), pending: total - results.count)
    }

    /// The native refresh, recording each finished place and sending its progress while the request is open.
    private static func refresh(
        _ engine: Engine, _ scope: RefreshScope, request: MCPRequest, cause: String, progress: RefreshProgress,
        pushes: Pushes
    ) async throws -> RefreshReport {
        try await engine.refresh(scope, cause: cause) { outcome, done, total in
            progress.record(outcome, total: total) {
                guard let token = request.progressToken else { return }
                var params: [String: JSONValue] = [
                    "progressToken": token, "progress": .int(Int64(done)), "total": .int(Int64(total)),
                ]
                if request.version.hasAnnotations {
                    let place = outcome.place.name ?? outcome.label
                    params["message"] = .string("\(place): \(outcome.failure == nil ? "refreshed" : "failed")")
                }
                pushes.notify("notifications/progress", .object(params))
            }
        }
    }
}

/// What `refresh_weather` answers: the native refresh's report, and when the deadline cut it short, how many
/// places were still pending.
private struct RefreshToolAnswer: Sendable {
    var report: RefreshReport
    /// The places not finished by the deadline; nil when the refresh finished.
    var pending: Int?

    var results: [RefreshOutcome] { report.results }

    /// `refresh`'s answer, with `pending` when the refresh was cut short.
    var json: JSONValue {
        guard let pending, case .object(var object) = report.json else { return report.json }
        object["pending"] = .int(Int64(pending))
        return .object(object)
    }
}

/// The places a refresh has finished, and whether progress may still be sent (not after the answer).
private final class RefreshProgress: Sendable {
    private let state = Mutex((results: [RefreshOutcome](), total: 0, open: true))

    /// Records a finished place and, while the request is unanswered, sends its progress.
    func record(_ result: RefreshOutcome, total: Int, notify: () -> Void) {
        state.withLock { state in
            guard state.open else { return }
            state.results.append(result)
            state.total = total
            notify()
        }
    }

    /// No more progress: the answer is on its way.
    func close() { state.withLock { $0.open = false } }

    var snapshot: ([RefreshOutcome], Int) { state.withLock { ($0.results, $0.total) } }
}
