import WeatherDomain

/// A CAP 1.2 (OASIS Common Alerting Protocol) `alert` document read into warnings: one per `info` block.
///
/// Read: `identifier`, `sender`, `sent`, `status` (only `Actual` gives warnings: `Exercise`, `System`, `Test`
/// and `Draft` give none), `msgType` (`Alert`, `Update`, `Cancel`; `Ack` and `Error` give none), `references`
/// (the ids an update replaces or a cancel withdraws), and of each `info`: `language` (`en-US` when absent, as
/// CAP defines), `event`, `responseType`s, `urgency`, `severity`, `certainty` (as issued; the severity read as
/// one of CAP's five, see `WarningSeverity`), `effective`, `onset`, `expires`, `senderName` (else the alert's
/// `sender`), `headline`, `description`, `instruction`, `web` and its `area`s: their `areaDesc`, `polygon`s,
/// `circle`s and `geocode`s. Which warnings are shown (not expired, not all-clear, not replaced, one language)
/// is `WarningRules`' decision, not the reader's. The XML is read by `CAPXML`, which refuses DTDs and entities.
package enum CAPDocument {
    /// CAP 1.2's XML namespace.
    package static let namespace = "urn:oasis:names:tc:emergency:cap:1.2"

    /// The warnings of a CAP document's body.
    ///
    /// - Throws: `ProviderError` `bad_upstream_response` naming what is wrong: not XML weatherd reads (see
    ///   `CAPXML`), not a CAP 1.2 `alert`, a required element missing, a time without its offset, a polygon or
    ///   circle that is not one.
    package static func warnings(_ body: [UInt8], source: OfficialWarning.Source, provider: String)
        throws(ProviderError) -> [OfficialWarning]
    {
        let root: CAPXML.Element
        do throws(CAPXML.Refusal) {
            root = try CAPXML.parse(body)
        } catch {
            throw .badBody(provider, "not a CAP document weatherd reads: \(error.reason)")
        }
        do throws(FieldError) {
            return try warnings(root, source: source)
        } catch {
            throw .badBody(provider, error.description)
        }
    }

    static func warnings(_ root: CAPXML.Element, source: OfficialWarning.Source) throws(FieldError) -> [OfficialWarning]
    {
        guard root.name == "alert", root.namespace == namespace else {
            throw FieldError(
                path: root.name, problem: "must be a CAP 1.2 alert (element alert in the namespace \(namespace))")
        }
        guard CAPFields.isActual(try required(root, "status", "alert")) else { return [] }
        let type = try required(root, "msgType", "alert")
        guard let messageType = OfficialWarning.MessageType(cap: type) else {
            let lowered = type.lowercased()
            guard lowered == "ack" || lowered == "error" else {
                throw FieldError(path: "alert.msgType", problem: "must be Alert, Update, Cancel, Ack or Error")
            }
            return []
        }
        let id = try required(root, "identifier", "alert")
        let sender = try required(root, "sender", "alert")
        guard let sent = try time(root, "sent", "alert") else {
            throw FieldError(path: "alert.sent", problem: "is required")
        }
        let replaces = try CAPFields.referencedIDs(root.child("references"), path: "alert.references")
        var warnings: [OfficialWarning] = []
        for (index, info) in root.all("info").enumerated() {
            let path = "alert.info[\(index)]"
            let severity = try required(info, "severity", path)
            var areaNames: [String] = []
            var areaIds: [String] = []
            var shapes = WarningShapes()
            for (areaIndex, area) in info.all("area").enumerated() {
                let areaPath = "\(path).area[\(areaIndex)]"
                if let name = area.child("areaDesc") { areaNames.append(name) }
                for (polygonIndex, polygon) in area.all("polygon").enumerated() {
                    shapes.polygons.append(try self.polygon(polygon.text, path: "\(areaPath).polygon[\(polygonIndex)]"))
                }
                for (circleIndex, circle) in area.all("circle").enumerated() {
                    shapes.circles.append(try self.circle(circle.text, path: "\(areaPath).circle[\(circleIndex)]"))
                }
                for geocode in area.all("geocode") {
                    if let value = geocode.child("value") { areaIds.append(value) }
                }
            }
            warnings.append(
                OfficialWarning(
                    id: id, source: source, sender: info.child("senderName") ?? sender,
                    event: try required(info, "event", path), severity: WarningSeverity(cap: severity),
                    certainty: try required(info, "certainty", path), urgency: try required(info, "urgency", path),
                    sent: sent, effective: try time(info, "effective", path), onset: try time(info, "onset", path),
                    expires: try time(info, "expires", path), headline: info.child("headline"),
                    description: info.child("description"), instruction: info.child("instruction"),
                    web: info.child("web"), language: info.child("language") ?? "en-US", replaces: replaces,
                    areaNames: areaNames, areaIds: areaIds, messageType: messageType,
                    responseTypes: info.all("responseType").map(\.text.trimmingWhitespace).filter { !$0.isEmpty },
                    shapes: shapes))
        }
        return warnings
    }

    private static func required(_ element: CAPXML.Element, _ name: String, _ path: String) throws(FieldError)
        -> String
    {
        guard let text = element.child(name) else { throw FieldError(path: "\(path).\(name)", problem: "is required") }
        return text
    }

    private static func time(_ element: CAPXML.Element, _ name: String, _ path: String) throws(FieldError)
        -> Timestamp?
    {
        guard let text = element.child(name) else { return nil }
        guard let time = Timestamp(rfc3339: text) else {
            throw FieldError(
                path: "\(path).\(name)", problem: "must be a time with an offset such as 2025-03-06T13:37:01-00:00")
        }
        return time
    }

    /// A CAP polygon: `lat,lon` pairs separated by white space (spaces, tabs or newlines), at least three
    /// distinct points; CAP closes it by repeating the first point last, and one read without that is closed
    /// all the same.
    static func polygon(_ text: String, path: String) throws(FieldError) -> [WarningShapes.Point] {
        var points: [WarningShapes.Point] = []
        for pair in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
            points.append(try point(pair, path: path))
        }
        if points.count > 1, points.first == points.last { points.removeLast() }
        guard points.count >= 3 else {
            throw FieldError(path: path, problem: "must be at least three lat,lon points")
        }
        return points
    }

    /// A CAP circle: `lat,lon radius`, the radius in kilometres.
    static func circle(_ text: String, path: String) throws(FieldError) -> WarningShapes.Circle {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        guard parts.count == 2, let radius = Double(parts[1]), radius.isFinite, radius >= 0 else {
            throw FieldError(path: path, problem: "must be lat,lon followed by a radius in kilometres")
        }
        return WarningShapes.Circle(center: try point(parts[0], path: path), radiusKm: radius)
    }

    private static func point(_ pair: Substring, path: String) throws(FieldError) -> WarningShapes.Point {
        let numbers = pair.split(separator: ",", omittingEmptySubsequences: false)
        guard numbers.count == 2, let lat = Double(numbers[0]), let lon = Double(numbers[1]), (-90...90).contains(lat),
            (-180...180).contains(lon)
        else {
            throw FieldError(path: path, problem: "has \(pair.prefix(40)), which is not lat,lon in degrees")
        }
        return WarningShapes.Point(lat: lat, lon: lon)
    }
}
