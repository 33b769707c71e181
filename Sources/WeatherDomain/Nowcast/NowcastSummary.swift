/// What the next minutes hold, in a word and a sentence: read from the steps of a nowcast ahead of now.
///
/// The steps are read as spells of precipitation (steps of at least `PrecipitationIntensity.wet`, 0.1 mm/h:
/// a trace below it is dry); two spells with less than `bridgedGapMinutes` of dry between them count as
/// one, so a flickering source does not turn steady rain into "on and off". `peak` is the highest rate of
/// the steps as they read, a trace included, so it never disagrees with them; a trace has no `category`.
package struct NowcastSummary: Sendable, Equatable {
    package enum State: String, Sendable, CaseIterable {
        /// Nothing falls in the window.
        case dry
        /// Dry now, one spell later (it may end within the window: `endsAt`).
        case starting
        /// Falling now and all through the window.
        case ongoing
        /// Falling now, ending within the window and dry after.
        case stopping
        /// More than one spell in the window.
        case intermittent
    }

    package var state: State
    /// When the first spell begins, when it is not falling now.
    package var startsAt: Timestamp?
    /// When the last spell ends, when it ends within the window.
    package var endsAt: Timestamp?
    /// The highest rate of the window's steps, mm/h: 0 when nothing falls, under 0.1 for a trace (the state
    /// is then `dry`).
    package var peak: Double
    /// The WMO class of `peak`; nil when dry (a trace below `PrecipitationIntensity.wet` included).
    package var category: PrecipitationIntensity?
    /// The minutes from now that the steps cover.
    package var horizonMinutes: Int

    /// Dry spells shorter than this are bridged.
    package static let bridgedGapMinutes = 10

    /// Reads `steps` (those ahead of `now`, oldest first, each `resolutionMinutes` long).
    package init(_ steps: [NowcastStep], resolutionMinutes: Int, now: Timestamp) {
        let stepMs = Int64(resolutionMinutes) * 60_000
        let windowEnd = steps.last.map { $0.time.milliseconds + stepMs } ?? now.milliseconds
        horizonMinutes = Int(max(0, windowEnd - now.milliseconds) / 60_000)
        peak = max(0, steps.map(\.intensity).max() ?? 0)
        category = peak >= PrecipitationIntensity.wet ? PrecipitationIntensity(rate: peak) : nil
        let spells = Self.spells(steps, stepMs: stepMs)
        guard let first = spells.first, let last = spells.last else {
            (state, startsAt, endsAt) = (.dry, nil, nil)
            return
        }
        let fallingNow = first.start == steps.first?.time.milliseconds
        startsAt = fallingNow ? nil : Timestamp(milliseconds: first.start)
        endsAt = last.end < windowEnd ? Timestamp(milliseconds: last.end) : nil
        state =
            spells.count > 1 ? .intermittent : !fallingNow ? .starting : endsAt == nil ? .ongoing : .stopping
    }

    /// The spells of `steps` as [start, end) in milliseconds, short dry gaps bridged.
    private static func spells(_ steps: [NowcastStep], stepMs: Int64) -> [(start: Int64, end: Int64)] {
        var spells: [(start: Int64, end: Int64)] = []
        for step in steps where step.isWet {
            let start = step.time.milliseconds
            if let last = spells.last, start - last.end < Int64(bridgedGapMinutes) * 60_000 {
                spells[spells.count - 1].end = start + stepMs
            } else {
                spells.append((start, start + stepMs))
            }
        }
        return spells
    }

    /// A sentence for people: "Light rain starting in about 10 min, easing off around 14:40." `localTime`
    /// writes a time as the place's clock reads it (`14:40`).
    package func sentence(
        kind: PrecipitationKind?, now: Timestamp, localTime: (Timestamp) -> String
    ) -> String {
        let window = (50...70).contains(horizonMinutes) ? "the next hour" : "the next \(horizonMinutes) min"
        guard let category else { return "No precipitation expected in \(window)." }
        let what =
            "\(category.rawValue.prefix(1).uppercased())\(category.rawValue.dropFirst()) "
            + PrecipitationKind.word(kind)
        let easing = endsAt.map { ", easing off around \(localTime($0))" } ?? ""
        switch state {
        case .dry:
            return "No precipitation expected in \(window)."
        case .starting:
            return "\(what) starting in \(Self.about(startsAt, now))\(easing)."
        case .ongoing:
            return "\(what) continuing for \(window)."
        case .stopping:
            return "\(what) stopping in \(Self.about(endsAt, now))."
        case .intermittent:
            let start = startsAt.map { ", starting in \(Self.about($0, now))" } ?? " for \(window)"
            return "\(what) on and off\(start)."
        }
    }

    /// "about 7 min", "about 25 min": exact below 10 minutes, else to the nearest 5.
    package static func about(_ time: Timestamp?, _ now: Timestamp) -> String {
        let minutes = max(1, Int(((time?.milliseconds ?? now.milliseconds) - now.milliseconds + 30_000) / 60_000))
        return "about \(minutes < 10 ? minutes : (minutes + 2) / 5 * 5) min"
    }
}
