import Foundation
import WeatherDomain

/// `?format=j1`: the JSON wttr.in gives, as the programs written for it read it (wttrbar, waybar and
/// polybar scripts): every value a string, both unit systems side by side, conditions as WorldWeatherOnline
/// codes.
///
/// Built from a `weather/current` and a three-hourly `weather/forecast` result in metric units. What weatherd
/// does not know is left out, never made up: `moonrise`/`moonset`, `sunHour`, the `chanceof…` figures other
/// than rain and snow. `weather` holds the place's first three local dates, each with the three-hourly steps
/// the forecast has for it (`time` `"0"`, `"300"` … `"2100"`, local).
enum WttrJSON {
    static func render(current: JSONValue, forecast: JSONValue, query: String, byCoordinates: Bool) -> JSONValue {
        let location = current["location"] ?? .null
        let offset = location["utcOffsetSeconds"]?.intValue ?? 0
        let now = current["current"] ?? .null
        var condition = quantities(now)
        condition["observation_time"] = .string(
            time(current["observedAt"], offset: 0, format: .clock))
        condition["localObsDateTime"] = .string(time(current["observedAt"], offset: offset, format: .dateAndClock))
        let days = (forecast["daily"]?.arrayValue ?? []).prefix(3).map { day($0, forecast: forecast, offset: offset) }
        let area: JSONValue = [
            "areaName": wrapped(location["name"]?.stringValue ?? OneLine.placeName(location)),
            "country": wrapped(location["country"]?.stringValue ?? ""),
            "region": wrapped(location["state"]?.stringValue ?? ""),
            "latitude": .string(decimal(location["lat"], 3)), "longitude": .string(decimal(location["lon"], 3)),
            "population": "0", "weatherUrl": wrapped(""),
        ]
        return [
            "current_condition": [.object(condition)], "nearest_area": [area],
            "request": [["query": .string(query), "type": .string(byCoordinates ? "LatLon" : "City")]],
            "weather": .array(days),
        ]
    }

    /// A reading's figures as wttr.in names them (the current conditions and each hourly step share them).
    static func quantities(_ values: JSONValue) -> [String: JSONValue] {
        let celsius = values["temperature"]?.doubleValue
        let feels = values["feelsLike"]?.doubleValue ?? celsius
        let kmh = values["windSpeed"]?.doubleValue.map { $0 * 3.6 }
        let millimetres = values["precipitation"]?.doubleValue ?? 0
        var fields: [String: JSONValue] = [
            "temp_C": .string(whole(celsius)), "temp_F": .string(whole(celsius.map(fahrenheit))),
            "FeelsLikeC": .string(whole(feels)), "FeelsLikeF": .string(whole(feels.map(fahrenheit))),
            "humidity": .string(whole(values["humidity"]?.doubleValue)),
            "cloudcover": .string(whole(values["cloudCover"]?.doubleValue)),
            "pressure": .string(whole(values["pressure"]?.doubleValue)),
            "pressureInches": .string(whole(values["pressure"]?.doubleValue.map { $0 / 33.8639 })),
            "precipMM": .string(decimal(.double(millimetres), 1)),
            "precipInches": .string(decimal(.double(millimetres / 25.4), 1)),
            "uvIndex": .string(whole(values["uvIndex"]?.doubleValue)),
            "visibility": .string(whole(values["visibility"]?.doubleValue)),
            "visibilityMiles": .string(whole(values["visibility"]?.doubleValue.map { $0 / 1.609344 })),
            "windspeedKmph": .string(whole(kmh)), "windspeedMiles": .string(whole(kmh.map { $0 / 1.609344 })),
            "winddirDegree": .string(whole(values["windDirection"]?.doubleValue)),
            "winddir16Point": .string(values["windDirection"]?.doubleValue.map(compassPoint) ?? ""),
            "weatherCode": .string(String(code(values["condition"] ?? .null))),
            "weatherDesc": wrapped(Text.capitalized(values["condition"]?["text"]?.stringValue ?? "")),
            "weatherIconUrl": wrapped(""),
        ]
        if let dewPoint = values["dewPoint"]?.doubleValue {
            fields["DewPointC"] = .string(whole(dewPoint))
            fields["DewPointF"] = .string(whole(fahrenheit(dewPoint)))
        }
        return fields
    }

    /// One local date of the forecast, with its Sun and Moon and its three-hourly steps.
    static func day(_ day: JSONValue, forecast: JSONValue, offset: Int64) -> JSONValue {
        let date = day["date"]?.stringValue ?? ""
        let low = day["min"]?.doubleValue
        let high = day["max"]?.doubleValue
        let mean = low.flatMap { low in high.map { (low + $0) / 2 } }
        let hourly = (forecast["entries"]?.arrayValue ?? []).compactMap { entry -> JSONValue? in
            guard let start = entry["time"]?.stringValue.flatMap(Timestamp.init(rfc3339:)) else { return nil }
            guard LocalDate.string(start, zone: .fixed(offset)) == date else { return nil }
            let minutes = Int64.floorMod(start.milliseconds / 1000 + offset, 86_400) / 60
            var step = quantities(entry)
            step["time"] = .string(String(minutes / 60 * 100 + minutes % 60))
            let pop = whole(entry["pop"]?.doubleValue.map { $0 * 100 } ?? 0)
            let snowy = [.lightSnow, .snow].contains(Symbols.kind(entry["condition"] ?? .null))
            step["chanceofrain"] = .string(snowy ? "0" : pop)
            step["chanceofsnow"] = .string(snowy ? pop : "0")
            step["tempC"] = step["temp_C"]
            step["tempF"] = step["temp_F"]
            return .object(step)
        }
        var astronomy: [String: JSONValue] = [
            "sunrise": .string(sunTime(day["sunrise"], offset: offset, none: "No sunrise")),
            "sunset": .string(sunTime(day["sunset"], offset: offset, none: "No sunset")),
        ]
        if let phase = day["moonPhase"]?.doubleValue {
            astronomy["moon_phase"] = .string(moonPhaseName(phase))
            astronomy["moon_illumination"] = .string(whole((1 - cos(2 * Double.pi * phase)) / 2 * 100))
        }
        return [
            "date": .string(date), "maxtempC": .string(whole(high)), "maxtempF": .string(whole(high.map(fahrenheit))),
            "mintempC": .string(whole(low)), "mintempF": .string(whole(low.map(fahrenheit))),
            "avgtempC": .string(whole(mean)), "avgtempF": .string(whole(mean.map(fahrenheit))),
            "uvIndex": .string(whole(day["uvIndex"]?.doubleValue)),
            "totalSnow_cm": "0.0", "astronomy": [.object(astronomy)], "hourly": .array(hourly),
        ]
    }

    /// The WorldWeatherOnline code wttr.in gives for a condition (wttrbar and others draw by it).
    static func code(_ condition: JSONValue) -> Int {
        switch Symbols.kind(condition) {
        case .clear: 113
        case .mostlyClear, .partlyCloudy: 116
        case .cloudy, .tornado, .unknown: 119
        case .fog: 248
        case .lightRain: 296
        case .rain: 302
        case .lightSnow: 326
        case .snow: 332
        case .thunder: 200
        }
    }

    static func moonPhaseName(_ phase: Double) -> String {
        let names = [
            "New Moon", "Waxing Crescent", "First Quarter", "Waxing Gibbous", "Full Moon", "Waning Gibbous",
            "Last Quarter", "Waning Crescent",
        ]
        return names[Int((phase * 8).rounded()) % 8]
    }

    static func compassPoint(_ degrees: Double) -> String {
        let points = [
            "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
        ]
        let index = Int((degrees.truncatingRemainder(dividingBy: 360) + 360) / 22.5 + 0.5) % 16
        return points[index]
    }

    static func fahrenheit(_ celsius: Double) -> Double { celsius * 9 / 5 + 32 }

    /// A whole number as wttr.in writes it (`"-3"`); empty when unknown.
    static func whole(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "" }
        let rounded = value.rounded()
        return String(Int64(rounded == 0 ? 0 : rounded))
    }

    static func decimal(_ value: JSONValue?, _ places: Int) -> String {
        guard let number = value?.doubleValue, number.isFinite else { return "" }
        return String(format: "%.\(places)f", number)
    }

    static func wrapped(_ text: String) -> JSONValue { [["value": .string(text)]] }

    enum TimeFormat { case clock, dateAndClock }

    /// `07:45 AM`, or `2026-11-29 07:45 AM`, at `offset` seconds from UTC.
    static func time(_ value: JSONValue?, offset: Int64, format: TimeFormat) -> String {
        guard let time = value?.stringValue.flatMap(Timestamp.init(rfc3339:)) else { return "" }
        let minutes = Int64.floorMod(time.milliseconds / 1000 + offset, 86_400) / 60
        let hour = minutes / 60
        let clock = twoDigits((hour + 11) % 12 + 1) + ":" + twoDigits(minutes % 60) + (hour < 12 ? " AM" : " PM")
        guard format == .dateAndClock else { return clock }
        return LocalDate.string(time, zone: .fixed(offset)) + " " + clock
    }

    static func twoDigits(_ number: Int64) -> String { number < 10 ? "0\(number)" : String(number) }

    static func sunTime(_ value: JSONValue?, offset: Int64, none: String) -> String {
        value == nil || value == .null ? none : time(value, offset: offset, format: .clock)
    }
}
