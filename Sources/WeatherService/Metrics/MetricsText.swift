import WeatherDomain
import WeatherEngine

/// The engine's `MetricsReading` as the Prometheus text format: what `GET /metrics`, `metrics/get` and
/// `weatherd metrics` answer.
///
/// Families follow Prometheus's conventions: base units in the name (`_celsius`, `_ratio`, `_pascals`,
/// `_meters_per_second`, `_seconds`, `_bytes`), `_total` on counters, one `# HELP` and `# TYPE` each.
/// Weather series carry `place` (a favorite's name, or `current location`) and `provider`; a value the
/// provider did not give is left out, never written as 0.
package enum MetricsText {
    /// The exposition of `reading`.
    package static func render(_ reading: MetricsReading) -> String {
        var out = Exposition()
        weather(reading.places, into: &out)
        out.family(
            "weatherd_official_warnings_in_force", .gauge,
            help: "Official warnings in force at a place with alerts on, by severity, as last fetched.",
            reading.places.flatMap { place in
                (place.warnings ?? [:]).sorted { $0.key < $1.key }.map {
                    .init([("place", label(place.place)), ("severity", $0.key.cap)], Double($0.value))
                }
            })
        let alerts = reading.counters.alerts.merging(AlertRule.allCases.map { ($0.rawValue, 0) }) { $0 + $1 }
        out.family(
            "weatherd_alerts_raised_total", .counter, help: "Alerts raised since the daemon started, by rule.",
            alerts.sorted { $0.key < $1.key }.map { .init([("rule", $0.key)], Double($0.value)) })
        out.family(
            "weatherd_upstream_requests_total", .counter,
            help: "Upstream requests (retries included) since the daemon started, by provider and outcome.",
            reading.counters.requests.sorted { ($0.key.provider, $0.key.outcome) < ($1.key.provider, $1.key.outcome) }
                .map { .init([("provider", $0.key.provider), ("outcome", $0.key.outcome)], Double($0.value)) })
        out.histogram(
            "weatherd_upstream_request_duration_seconds",
            help: "How long upstream requests took since the daemon started, by provider.",
            reading.counters.durations.sorted { $0.key < $1.key }.map { provider, durations in
                .init(
                    [("provider", provider)], buckets: Array(zip(MetricCounters.durationBounds, durations.buckets)),
                    sum: durations.sum, count: durations.count)
            })
        out.family(
            "weatherd_log_bytes", .gauge, help: "The event log's size on disk, sealed segments included.",
            [.init([], Double(reading.logBytes))])
        out.family(
            "weatherd_log_events_total", .counter, help: "Events ever appended to the event log (its last seq).",
            [.init([], Double(reading.logEvents))])
        out.family(
            "weatherd_connected_clients", .gauge, help: "Clients connected to the daemon's socket.",
            [.init([], Double(reading.connections))])
        if let shipping = reading.shipping {
            out.family(
                "weatherd_ship_lag_events", .gauge,
                help: "Committed events not yet acknowledged by the NATS JetStream stream the log ships to.",
                [.init([("stream", shipping.stream)], Double(shipping.lag(lastSeq: reading.logEvents)))])
            out.family(
                "weatherd_ship_published_total", .counter,
                help: "Events the NATS JetStream stream acknowledged since the daemon started.",
                [.init([("stream", shipping.stream)], Double(shipping.published))])
        }
        out.family(
            "weatherd_build_info", .gauge, help: "The running weatherd's version (always 1).",
            [.init([("version", reading.version)], 1)])
        return out.text
    }

    /// The weather gauges, one family at a time, each with a series per place that has the value.
    private static func weather(_ places: [MetricsReading.PlaceReading], into out: inout Exposition) {
        let gauges: [(String, String, (CurrentConditions) -> Double?)] = [
            ("weatherd_temperature_celsius", "The air temperature.", { $0.temperature }),
            ("weatherd_apparent_temperature_celsius", "The apparent (feels-like) temperature.", { $0.feelsLike }),
            ("weatherd_dew_point_celsius", "The dew point.", { $0.dewPoint }),
            ("weatherd_relative_humidity_ratio", "The relative humidity, 0 to 1.", { $0.humidity.map { $0 / 100 } }),
            ("weatherd_wind_speed_meters_per_second", "The wind speed.", { $0.windSpeed }),
            ("weatherd_wind_gust_meters_per_second", "The wind gusts.", { $0.windGust }),
            ("weatherd_pressure_pascals", "The sea-level air pressure.", { $0.pressure.map { $0 * 100 } }),
        ]
        for (name, help, value) in gauges {
            out.family(
                name, .gauge, help: help + " From the last current-weather fetch.",
                places.compactMap { place in
                    guard let current = place.current, let number = value(current.value) else { return nil }
                    return .init([("place", label(place.place)), ("provider", current.provider)], number)
                })
        }
        out.family(
            "weatherd_precipitation_chance_next_6h_ratio", .gauge,
            help: "The highest chance of precipitation in the next 6 hours of the last forecast fetched, 0 to 1.",
            places.compactMap { place in
                place.precipitationChance.map {
                    .init([("place", label(place.place)), ("provider", $0.provider)], $0.ratio)
                }
            })
        out.family(
            "weatherd_observation_age_seconds", .gauge,
            help: "How old the current observation is: from the provider's observation time to now.",
            places.compactMap { place in
                guard let current = place.current, let age = place.observationAgeSeconds else { return nil }
                return .init([("place", label(place.place)), ("provider", current.provider)], age)
            })
    }

    /// A place's name as a label value: a control character, a line or paragraph separator or a bidirectional
    /// override (which a name from outside may hold) becomes U+FFFD, so the text is safe on a terminal and
    /// valid for any scraper (the format itself escapes only `\`, `"` and a line feed).
    package static func label(_ name: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
                result.append("\u{FFFD}")
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
