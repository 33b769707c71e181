import Foundation

/// CAP 1.2 documents written for tests to the OASIS schema: what the recorded ones do not show (updates,
/// cancels, all-clears, expired alerts, polygons across ±180°, circles, several languages) and hostile XML.
package enum CAPSamples {
    /// One `info` block.
    package struct Info: Sendable {
        package var language: String? = "en-GB"
        package var event = "Gale"
        package var severity = "Severe"
        package var urgency = "Expected"
        package var certainty = "Likely"
        package var responseType: String? = "Prepare"
        package var onset: String? = nil
        package var expires: String? = "2025-04-14T20:00:00+01:00"
        package var senderName: String? = "Met Service"
        package var headline: String? = "Gale warning"
        package var description: String? = "Southerly winds will reach gale force."
        package var instruction: String? = nil
        package var web: String? = "https://example.org/warnings"
        package var areaDesc = "Coastal waters"
        package var polygons: [String] = []
        package var circles: [String] = []
        package var geocodes: [(String, String)] = []

        package init() {}
    }

    /// A CAP 1.2 `alert` document.
    package static func document(
        identifier: String = "2.49.0.1.999.0.test.1", sender: String = "warnings@example.org",
        sent: String = "2025-04-14T00:16:48+01:00", status: String = "Actual", msgType: String = "Alert",
        references: String? = nil, infos: [Info] = [Info()]
    ) -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
              <identifier>\(escaped(identifier))</identifier>
              <sender>\(escaped(sender))</sender>
              <sent>\(sent)</sent>
              <status>\(status)</status>
              <msgType>\(msgType)</msgType>
              <scope>Public</scope>

            """
        if let references { xml += "  <references>\(escaped(references))</references>\n" }
        for info in infos {
            xml += "  <info>\n"
            if let language = info.language { xml += "    <language>\(language)</language>\n" }
            xml += "    <category>Met</category>\n    <event>\(escaped(info.event))</event>\n"
            if let responseType = info.responseType { xml += "    <responseType>\(responseType)</responseType>\n" }
            xml += "    <urgency>\(info.urgency)</urgency>\n    <severity>\(info.severity)</severity>\n"
            xml += "    <certainty>\(info.certainty)</certainty>\n"
            if let onset = info.onset { xml += "    <onset>\(onset)</onset>\n" }
            if let expires = info.expires { xml += "    <expires>\(expires)</expires>\n" }
            for (name, value) in [
                ("senderName", info.senderName), ("headline", info.headline), ("description", info.description),
                ("instruction", info.instruction), ("web", info.web),
            ] {
                if let value { xml += "    <\(name)>\(escaped(value))</\(name)>\n" }
            }
            xml += "    <area>\n      <areaDesc>\(escaped(info.areaDesc))</areaDesc>\n"
            for polygon in info.polygons { xml += "      <polygon>\(polygon)</polygon>\n" }
            for circle in info.circles { xml += "      <circle>\(circle)</circle>\n" }
            for (name, value) in info.geocodes {
                xml += "      <geocode>\n        <valueName>\(name)</valueName>\n        <value>\(value)</value>\n"
                xml += "      </geocode>\n"
            }
            xml += "    </area>\n  </info>\n"
        }
        return xml + "</alert>\n"
    }

    /// A document sent an hour before `now` and in force for a day after it, whose polygon is a square of 1° around
    /// `(lat, lon)`: for tests that run on the real clock.
    package static func inForce(
        identifier: String, senderName: String, event: String, headline: String, lat: Double, lon: Double,
        now: Date = Date()
    ) -> String {
        let format = ISO8601DateFormatter()
        var info = Info()
        info.event = event
        info.senderName = senderName
        info.headline = headline
        info.severity = "Moderate"
        info.expires = format.string(from: now.addingTimeInterval(86_400))
        info.polygons = [square(lat: lat, lon: lon)]
        info.areaDesc = "around \(lat),\(lon)"
        return document(
            identifier: identifier, sender: "cap@example.org", sent: format.string(from: now.addingTimeInterval(-3600)),
            infos: [info])
    }

    /// The FOSS Public Alert Server's id of the alert at Tokyo of the stand-ins (`tokyo`).
    package static let tokyoAlert = "6f1c2d3e-4b5a-4c6d-8e7f-901a2b3c4d5e"

    /// A stand-in of the FOSS Public Alert Server around Tokyo, for `server`: the feeds of the countries the time
    /// zone table names near Tokyo (Japan and Australia, both operating), one alert in the box around it, and its
    /// CAP document (the Japan Meteorological Agency's, in force), served at `/alert/{id}` or, with `redirect`,
    /// behind a permanent redirect to `/media/tokyo.xml`, as the real server keeps its files.
    package static func serveTokyo(on server: LocalHTTPServer, redirect: Bool = false) {
        server.route(
            "/sources/area_status",
            .init(
                body: Array(
                    #"{"results":[{"name":"Japan: JMA","cap_alert_feed_status":"operating","authorityCountry":"jp"},{"name":"Australia: BoM","cap_alert_feed_status":"operating","authorityCountry":"au"}]}"#
                        .utf8)))
        server.route("/alert/area", .init(body: Array(#"["\#(tokyoAlert)"]"#.utf8)))
        let document = LocalHTTPServer.Response(
            body: Array(
                inForce(
                    identifier: "jp-heavy-rain-1", senderName: "Japan Meteorological Agency", event: "Heavy Rain",
                    headline: "Heavy rain warning for Tokyo", lat: 35.68, lon: 139.69
                ).utf8))
        if redirect {
            server.route(
                "/alert/\(tokyoAlert)", .init(status: 301, headers: ["Location": "/media/tokyo.xml"], body: []))
            server.route("/media/tokyo.xml", document)
        } else {
            server.route("/alert/\(tokyoAlert)", document)
        }
    }

    /// A square polygon of side `2 * half` degrees around `(lat, lon)`, closed, as CAP writes it.
    package static func square(lat: Double, lon: Double, half: Double = 0.5) -> String {
        let corners = [
            (lat - half, lon - half), (lat - half, lon + half), (lat + half, lon + half), (lat + half, lon - half),
        ]
        return (corners + [corners[0]]).map { "\($0.0),\($0.1)" }.joined(separator: " ")
    }

    /// A document declaring a DTD (harmless in itself: a document that declares any is refused).
    package static let doctype = """
        <?xml version="1.0"?>
        <!DOCTYPE alert [<!ELEMENT alert ANY>]>
        <alert xmlns="urn:oasis:names:tc:emergency:cap:1.2"><identifier>x</identifier></alert>
        """

    /// A document whose text is an external entity: a file of the machine that reads it.
    package static let externalEntity = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE alert [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
        <alert xmlns="urn:oasis:names:tc:emergency:cap:1.2"><identifier>&secret;</identifier></alert>
        """

    /// The "billion laughs": nested internal entities that expand to gigabytes.
    package static let billionLaughs: String = {
        var declarations = #"<!ENTITY lol "lol">"#
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            declarations += "\n  <!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
        }
        return """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [
              \(declarations)
            ]>
            <alert xmlns="urn:oasis:names:tc:emergency:cap:1.2"><identifier>&lol9;</identifier></alert>
            """
    }()

    /// A document nesting `depth` elements inside its `alert`.
    package static func deep(_ depth: Int) -> String {
        """
        <?xml version="1.0"?>
        <alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">\(String(repeating: "<x>", count: depth))\
        \(String(repeating: "</x>", count: depth))</alert>
        """
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
