import WeatherDomain
import WeatherService

/// One place's section of the dashboard: headings and lists a screen reader can walk, every symbol beside its
/// words (the symbol itself hidden from readers), and an answer that could not be had said in a sentence.
extension DashboardPlace {
    /// The section, its heading `id` made from `index`.
    func render(into html: inout HTML, index: Int) {
        let id = "place-\(index)"
        html.open("section", [("class", "place"), ("aria-labelledby", id)])
        html.open("h2", [("id", id)])
        html.text(name)
        html.text(" ")
        html.element("small", text: "(\(role))")
        html.close("h2")
        now(into: &html)
        nextHour(into: &html)
        warningsInForce(into: &html)
        daysAhead(into: &html)
        airQuality(into: &html)
        if let chart {
            html.element("h3", text: "Chart")
            html.open("figure", [("class", "chart")])
            html.markup(chart)
            html.close("figure")
        }
        html.close("section")
    }

    private func now(into html: inout HTML) {
        html.element("h3", text: "Now")
        guard let answer = Self.answered(current, "The current weather", into: &html) else { return }
        let weather = answer["current"] ?? .null
        let quantities = Quantities(answer["units"])
        let condition = weather["condition"] ?? .null
        html.open("p", [("class", "now")])
        html.element(
            "span", [("class", "symbol"), ("aria-hidden", "true")],
            text: Symbols.emoji(condition, night: weather["isDay"]?.boolValue == false))
        html.text(" ")
        html.element("strong", [("class", "temperature")], text: quantities.temperature(weather["temperature"]))
        html.text(" " + (condition["text"]?.stringValue ?? ""))
        var details: [String] = []
        if weather["feelsLike"] != nil { details.append("feels like \(quantities.temperature(weather["feelsLike"]))") }
        if weather["windSpeed"] != nil {
            details.append("wind \(quantities.wind(speed: weather["windSpeed"], direction: nil))")
        }
        if let humidity = weather["humidity"]?.doubleValue {
            details.append("humidity \(Text.number(humidity, decimals: 0))%")
        }
        if !details.isEmpty { html.text(", " + details.joined(separator: ", ")) }
        html.close("p")
        if answer["stale"]?.boolValue == true {
            html.element(
                "p", [("class", "stale")],
                text: "Stale: the provider could not be reached; these are the figures fetched at "
                    + (answer["fetchedAt"]?.stringValue ?? "?") + ".")
        }
    }

    private func nextHour(into html: inout HTML) {
        html.element("h3", text: "The next hour")
        guard let answer = Self.answered(nowcast, "The next hour's precipitation", into: &html) else { return }
        guard answer["covered"]?.boolValue == true else {
            html.element("p", text: answer["message"]?.stringValue ?? "No source serves this place.")
            return
        }
        html.open("p", [("class", "nowcast")])
        html.element(
            "span", [("class", "sparkline"), ("aria-hidden", "true")],
            text: NowcastText.sparkline(answer, minutes: 60))
        html.text(" " + (answer["summary"]?["sentence"]?.stringValue ?? ""))
        html.close("p")
    }

    private func warningsInForce(into html: inout HTML) {
        html.element("h3", text: "Warnings")
        guard let answer = Self.answered(warnings, "Official warnings", into: &html) else { return }
        let list = answer["warnings"]?.arrayValue ?? []
        guard !list.isEmpty else {
            let covered = answer["covered"]?.boolValue == true
            html.element(
                "p",
                text: covered
                    ? "None in force."
                    : "No warning service is known to watch this place"
                        + (answer["coverage"]?.stringValue.map { ": \($0)" } ?? "") + ".")
            return
        }
        html.open("ul", [("class", "warnings")])
        for warning in list {
            html.open("li")
            html.element("strong", text: warning["severity"]?.stringValue ?? "Unknown")
            html.text(": " + (warning["headline"]?.stringValue ?? warning["event"]?.stringValue ?? ""))
            html.close("li")
        }
        html.close("ul")
        if let attribution = answer["attribution"]?.stringValue {
            html.element("p", [("class", "source")], text: attribution)
        }
    }

    private func daysAhead(into html: inout HTML) {
        html.element("h3", text: "The days ahead")
        guard let answer = Self.answered(days, "The forecast", into: &html) else { return }
        let quantities = Quantities(answer["units"])
        html.open("ol", [("class", "days")])
        for day in answer["daily"]?.arrayValue ?? [] {
            let condition = day["condition"] ?? .null
            html.open("li")
            html.element("span", [("class", "day")], text: LocalTime.dayLabel(day["date"]?.stringValue ?? "?"))
            html.text(" ")
            html.element(
                "span", [("class", "symbol"), ("aria-hidden", "true")], text: Symbols.emoji(condition, night: false))
            html.text(" " + (condition["text"]?.stringValue ?? ""))
            html.text(
                ", \(quantities.temperature(day["min"])) to \(quantities.temperature(day["max"]))"
                    + (day["pop"]?.doubleValue.map { ", \(Quantities.percent($0)) chance of precipitation" } ?? ""))
            html.close("li")
        }
        html.close("ol")
    }

    private func airQuality(into html: inout HTML) {
        html.element("h3", text: "Air quality")
        guard let answer = Self.answered(air, "Air quality", into: &html) else { return }
        let now = answer["current"] ?? .null
        var parts: [String] = []
        if let index = now["europeanAqi"]?.doubleValue {
            parts.append(
                "European AQI \(Text.number(index, decimals: 0))"
                    + (now["europeanAqiLevel"]?.stringValue.map { " (\($0))" } ?? ""))
        }
        if let index = now["usAqi"]?.doubleValue { parts.append("US AQI \(Text.number(index, decimals: 0))") }
        for (member, label) in [("pm2_5", "PM2.5"), ("pm10", "PM10")] {
            if let value = now[member]?.doubleValue {
                parts.append("\(label) \(Text.number(value, decimals: 0)) µg/m³")
            }
        }
        html.element("p", text: parts.isEmpty ? "No figures for now." : parts.joined(separator: ", ") + ".")
    }

    /// The answer, or nil after a sentence saying why `what` is missing.
    private static func answered(_ answer: Answer, _ what: String, into html: inout HTML) -> JSONValue? {
        switch answer {
        case .success(let value):
            return value
        case .failure(let error):
            html.element("p", [("class", "missing")], text: "\(what): not available. \(error.message)")
            return nil
        }
    }
}
