import Providers
import Testing
import WeatherDomain
import WeatherTesting

@Suite("CAP 1.2 documents")
struct CAPDocumentTests {
    static func read(_ xml: String) throws(ProviderError) -> [OfficialWarning] {
        try CAPDocument.warnings(Array(xml.utf8), source: .fpas, provider: "fpas")
    }

    static func at(_ text: String) throws -> Timestamp { try #require(Timestamp(rfc3339: text)) }

    @Test("DWD's update in eight languages: every block read, the update's reference, a polygon and warn cells")
    func dwd() throws {
        let body = try Fixture.bytes("dwd-cap-starkregen-update-brandenburg-20230623", ext: "xml")
        let warnings = try CAPDocument.warnings(body, source: .fpas, provider: "fpas")
        #expect(warnings.count == 8)
        #expect(Set(warnings.map(\.id)).count == 1)
        #expect(warnings.first?.language == "de-DE")
        #expect(warnings.allSatisfy { $0.messageType == .update })
        #expect(
            warnings.first?.replaces == [
                "2.49.0.0.276.0.DWD.PVW.1687503060000.fc4f7fd9-80e7-4d71-969a-254be3e27e83.MUL"
            ])
        let german = try #require(warnings.first)
        #expect(german.event == "STARKREGEN")
        #expect(german.sender == "Deutscher Wetterdienst", "senderName wins over the sender address")
        #expect(german.severity == .moderate && german.severity.cap == "Moderate")
        #expect(german.urgency == "Immediate" && german.certainty == "Likely")
        #expect(german.responseTypes == ["Prepare"])
        #expect(german.web == "https://www.wettergefahren.de")
        #expect(german.effective == (try Self.at("2023-06-23T11:14:00+02:00")))
        #expect(german.expires == (try Self.at("2023-06-23T15:00:00+02:00")))
        #expect(german.areaIds.contains("812069270"))
        #expect(german.areaNames.contains("Stadt Havelsee"))
        #expect(german.shapes.polygons.count == 1)
        #expect(german.shapes.contains(lat: 52.5, lon: 12.4), "inside the event's polygon")
        #expect(!german.shapes.contains(lat: 52.52, lon: 13.41), "Berlin lies outside it")
        // One language per message: the reader's, else English, else the first.
        let english = WarningRules.oneLanguage(warnings)
        #expect(english.map(\.language) == ["en"])
        #expect(english.first?.event == "heavy rain")
        #expect(WarningRules.oneLanguage(warnings, language: "de").first?.language == "de-DE")
    }

    @Test("Met Éireann: a stylesheet line before the root, geocode-only areas, an empty instruction")
    func metEireann() throws {
        let body = try Fixture.bytes("met-eireann-cap-small-craft-20250414", ext: "xml")
        let warning = try #require(try CAPDocument.warnings(body, source: .fpas, provider: "fpas").first)
        #expect(warning.sender == "Met Éireann")
        #expect(warning.event == "Small Craft")
        #expect(warning.shapes.isEmpty)
        #expect(warning.areaIds == ["EI807", "EI809", "EI806", "EI808"])
        #expect(warning.instruction == nil, "an empty element is no text")
        #expect(warning.responseTypes == ["Monitor"])
        #expect(warning.language == "en-GB")
    }

    @Test("Kazhydromet: no senderName (the address stands), -00:00 offsets, a 72-point polygon around Kokpekti")
    func kazhydromet() throws {
        let body = try Fixture.bytes("kazhydromet-cap-freezing-rain-kokpekti-20250306", ext: "xml")
        let warning = try #require(try CAPDocument.warnings(body, source: .fpas, provider: "fpas").first)
        #expect(warning.sender == "kalmenova_a@meteo.kz")
        #expect(warning.sent == (try Self.at("2025-03-06T13:37:01Z")))
        #expect(warning.effective == nil && warning.description == nil)
        #expect(warning.shapes.polygons.first?.count == 71, "72 points, the closing one the first again")
        #expect(warning.shapes.contains(lat: 48.75, lon: 82.37))
        #expect(!warning.shapes.contains(lat: 43.24, lon: 76.89), "Almaty is far outside")
    }

    @Test("only Actual messages give warnings; Ack and Error give none; another msgType is an error")
    func statusAndType() throws {
        for status in ["Exercise", "System", "Test", "Draft"] {
            #expect(try Self.read(CAPSamples.document(status: status)).isEmpty, "\(status)")
        }
        #expect(try Self.read(CAPSamples.document(msgType: "Ack")).isEmpty)
        #expect(try Self.read(CAPSamples.document(msgType: "Error")).isEmpty)
        let error = failure { () throws(ProviderError) in _ = try Self.read(CAPSamples.document(msgType: "Notice")) }
        #expect(error?.kind == .badUpstreamResponse)
        #expect(error?.message.contains("alert.msgType") == true)
    }

    @Test("an update replaces what it references, a cancel withdraws it, an all-clear ends it, expired is not shown")
    func threads() throws {
        var first = CAPSamples.Info()
        first.expires = "2025-04-15T20:00:00+01:00"
        let alert = try Self.read(CAPSamples.document(identifier: "a1", infos: [first]))
        var stronger = first
        stronger.severity = "Extreme"
        let update = try Self.read(
            CAPSamples.document(
                identifier: "a2", sent: "2025-04-14T06:00:00+01:00", msgType: "Update",
                references: "warnings@example.org,a1,2025-04-14T00:16:48+01:00", infos: [stronger]))
        let now = try Self.at("2025-04-14T12:00:00Z")
        let shown = WarningRules.active(alert + update, now: now)
        #expect(shown.map(\.id) == ["a2"])
        #expect(shown.first?.severity.cap == "Extreme")

        let cancel = try Self.read(
            CAPSamples.document(
                identifier: "a3", sent: "2025-04-14T09:00:00+01:00", msgType: "Cancel",
                references: "warnings@example.org,a2,2025-04-14T06:00:00+01:00", infos: [stronger]))
        #expect(WarningRules.active(alert + update + cancel, now: now).isEmpty)

        var over = stronger
        over.responseType = "AllClear"
        let allClear = try Self.read(
            CAPSamples.document(
                identifier: "a4", sent: "2025-04-14T09:00:00+01:00", msgType: "Update",
                references: "warnings@example.org,a2,2025-04-14T06:00:00+01:00", infos: [over]))
        #expect(WarningRules.active(alert + update + allClear, now: now).isEmpty, "an all-clear is not shown")
        var past = stronger
        past.urgency = "Past"
        let ended = try Self.read(CAPSamples.document(identifier: "a5", infos: [past]))
        #expect(WarningRules.active(ended, now: now).isEmpty, "urgency Past is not shown")

        #expect(WarningRules.active(alert, now: try Self.at("2025-04-15T19:00:01Z")).isEmpty, "expired")
        var endless = first
        endless.expires = nil
        let open = try Self.read(CAPSamples.document(identifier: "a6", infos: [endless]))
        #expect(open.first?.expires == nil)
        #expect(WarningRules.active(open, now: try Self.at("2030-01-01T00:00:00Z")).count == 1, "no end: shown")
    }

    @Test("several languages: the reader's, else English, else the first")
    func languages() throws {
        var french = CAPSamples.Info()
        french.language = "fr-CA"
        french.event = "Avertissement de vent"
        var english = CAPSamples.Info()
        english.language = "en-CA"
        var spanish = CAPSamples.Info()
        spanish.language = "es"
        let warnings = try Self.read(CAPSamples.document(infos: [french, english, spanish]))
        #expect(WarningRules.oneLanguage(warnings).map(\.language) == ["en-CA"])
        #expect(WarningRules.oneLanguage(warnings, language: "fr").map(\.language) == ["fr-CA"])
        #expect(WarningRules.oneLanguage(warnings, language: "es-MX").map(\.language) == ["es"])
        let noEnglish = try Self.read(CAPSamples.document(infos: [french, spanish]))
        #expect(WarningRules.oneLanguage(noEnglish, language: "de").map(\.language) == ["fr-CA"])
        var unnamed = CAPSamples.Info()
        unnamed.language = nil
        #expect(try Self.read(CAPSamples.document(infos: [unnamed])).first?.language == "en-US", "CAP's default")
    }

    @Test("polygons across ±180° and circles cover the points inside them, and no others")
    func shapes() throws {
        var fiji = CAPSamples.Info()
        fiji.polygons = ["-17.5,179.5 -17.5,-179.5 -16.5,-179.5 -16.5,179.5 -17.5,179.5"]
        let across = try #require(try Self.read(CAPSamples.document(infos: [fiji])).first)
        #expect(across.shapes.contains(lat: -17, lon: 179.9))
        #expect(across.shapes.contains(lat: -17, lon: -179.9))
        #expect(across.shapes.contains(lat: -17, lon: 180))
        #expect(!across.shapes.contains(lat: -17, lon: 179))
        #expect(!across.shapes.contains(lat: -17, lon: 0), "not the long way round the world")
        #expect(!across.shapes.contains(lat: -18, lon: 179.9))

        var storm = CAPSamples.Info()
        storm.circles = ["45,10 20"]
        storm.polygons = ["\t1,1\n1,2\n2,2\r\n2,1  1,1 "]
        let circle = try #require(try Self.read(CAPSamples.document(infos: [storm])).first)
        #expect(circle.shapes.cover(lat: 45.1, lon: 10) == .circle, "11 km from the centre")
        #expect(circle.shapes.cover(lat: 45.3, lon: 10) == nil, "33 km from it")
        #expect(circle.shapes.cover(lat: 1.5, lon: 1.5) == .polygon, "tabs and newlines separate points too")
    }

    @Test(
        "a polygon or circle that is not one is a bad document, naming where",
        arguments: [
            ("<polygon>1,1 2,2</polygon>", "at least three"), ("<polygon>1,1 2,x 3,3 1,1</polygon>", "not lat,lon"),
            ("<polygon>91,1 2,2 3,3 91,1</polygon>", "not lat,lon"), ("<circle>45,10</circle>", "radius"),
        ])
    func badShapes(element: String, problem: String) throws {
        var info = CAPSamples.Info()
        info.areaDesc = "somewhere"
        let xml = CAPSamples.document(infos: [info]).replacingOccurrences(
            of: "<areaDesc>somewhere</areaDesc>", with: "<areaDesc>somewhere</areaDesc>\(element)")
        let error = failure { () throws(ProviderError) in _ = try Self.read(xml) }
        #expect(error?.kind == .badUpstreamResponse)
        #expect(error?.message.contains(problem) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("alert.info[0].area[0]") == true)
    }

    @Test(
        "hostile XML is refused before it is parsed, with a clear reason",
        arguments: [
            (CAPSamples.doctype, "declares a DTD or entities"),
            (CAPSamples.externalEntity, "declares a DTD or entities"),
            (CAPSamples.billionLaughs, "declares a DTD or entities"),
            ("<?xml version=\"1.0\"?>\n<!doctype alert>\n<alert/>", "declares a DTD or entities"),
            (CAPSamples.deep(100), "nest more than 32 deep"), ("<alert", "not well-formed XML"),
            ("<?xml version=\"1.0\" encoding=\"UTF-16\"?><alert/>", "encoding UTF-16"), ("", "empty"),
        ])
    func hostile(xml: String, reason: String) {
        let error = failure { () throws(ProviderError) in _ = try Self.read(xml) }
        #expect(error?.kind == .badUpstreamResponse)
        #expect(error?.message.contains("not a CAP document weatherd reads") == true)
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "no error")")
    }

    @Test("a document in UTF-16, or larger than 4 MiB, is refused unread")
    func sizeAndEncoding() {
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("<alert/>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let notUTF8 = failure { () throws(ProviderError) in
            _ = try CAPDocument.warnings(utf16, source: .fpas, provider: "fpas")
        }
        #expect(notUTF8?.message.contains("not in UTF-8") == true)
        var huge = CAPSamples.Info()
        huge.description = String(repeating: "a", count: 4 << 20)
        let tooBig = failure { () throws(ProviderError) in _ = try Self.read(CAPSamples.document(infos: [huge])) }
        #expect(tooBig?.message.contains("more than the 4194304 weatherd reads") == true)
    }

    @Test("a document that is not a CAP 1.2 alert, or lacks what CAP requires, names what is wrong")
    func notCAP() {
        let wrong = failure { () throws(ProviderError) in
            _ = try Self.read(#"<alert xmlns="urn:oasis:names:tc:emergency:cap:1.1"><status>Actual</status></alert>"#)
        }
        #expect(wrong?.message.contains("must be a CAP 1.2 alert") == true)
        let noSent = CAPSamples.document().replacingOccurrences(
            of: "<sent>2025-04-14T00:16:48+01:00</sent>", with: "<sent>2025-04-14 00:16</sent>")
        #expect(
            failure { () throws(ProviderError) in _ = try Self.read(noSent) }?.message.contains("alert.sent") == true)
        let noEvent = CAPSamples.document().replacingOccurrences(of: "<event>Gale</event>", with: "")
        #expect(
            failure { () throws(ProviderError) in _ = try Self.read(noEvent) }?.message.contains("alert.info[0].event")
                == true)
    }
}
