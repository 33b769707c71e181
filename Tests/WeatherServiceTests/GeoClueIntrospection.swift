import Foundation
import Testing
import WeatherService

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// GeoClue2's own interface descriptions (`Fixtures/GeoClue2`, its introspection XML): what a call to it may be.
struct GeoClueIntrospection {
    struct Property: Equatable {
        var type: String
        var access: String
    }

    /// The input signature of each method, by interface and name.
    var methods: [String: [String: String]] = [:]
    /// The argument signature of each signal, by interface and name.
    var signals: [String: [String: String]] = [:]
    var properties: [String: [String: Property]] = [:]

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/GeoClue2")

    /// Reads the three interfaces' XML.
    static func load() throws -> GeoClueIntrospection {
        var described = GeoClueIntrospection()
        for name in ["Manager", "Client", "Location"] {
            let url = folder.appendingPathComponent("geoclue2-introspection-org.freedesktop.GeoClue2.\(name).xml")
            let document = try XMLDocument(contentsOf: url, options: [])
            for interface in try document.nodes(forXPath: "/node/interface") {
                guard let interface = interface as? XMLElement,
                    let named = interface.attribute(forName: "name")?
                        .stringValue
                else { continue }
                for method in interface.elements(forName: "method") {
                    let inputs = method.elements(forName: "arg").filter {
                        ($0.attribute(forName: "direction")?.stringValue ?? "in") == "in"
                    }
                    described.methods[named, default: [:]][method.attribute(forName: "name")?.stringValue ?? ""] =
                        inputs.compactMap { $0.attribute(forName: "type")?.stringValue }.joined()
                }
                for signal in interface.elements(forName: "signal") {
                    described.signals[named, default: [:]][signal.attribute(forName: "name")?.stringValue ?? ""] =
                        signal.elements(forName: "arg").compactMap { $0.attribute(forName: "type")?.stringValue }
                        .joined()
                }
                for property in interface.elements(forName: "property") {
                    described.properties[named, default: [:]][property.attribute(forName: "name")?.stringValue ?? ""] =
                        Property(
                            type: property.attribute(forName: "type")?.stringValue ?? "",
                            access: property.attribute(forName: "access")?.stringValue ?? "")
                }
            }
        }
        return described
    }

    /// What is wrong with `call` as a call to GeoClue; nil when its interface describes it exactly.
    func problem(with call: DBusMessage) -> String? {
        let what = "\(call.interface ?? "?").\(call.member ?? "?")(\(call.signature))"
        if call.interface == DBusConnection.propertiesInterface {
            guard let interface = call.body.first?.text, let name = call.body.dropFirst().first?.text,
                let property = properties[interface]?[name]
            else { return "\(what): no such property" }
            switch (call.member, call.signature) {
            case ("Get", "ss"):
                return property.access.contains("read") ? nil : "\(what): \(name) cannot be read"
            case ("Set", "ssv"):
                guard property.access == "readwrite" else { return "\(what): \(name) cannot be written" }
                let type = call.body[2].unwrapped.signature
                return type == property.type ? nil : "\(what): \(name) is \(property.type), not \(type)"
            default:
                return "\(what): not a property call"
            }
        }
        guard let interface = call.interface, let signature = methods[interface]?[call.member ?? ""] else {
            return "\(what): no such method"
        }
        return signature == call.signature ? nil : "\(what): takes (\(signature))"
    }
}
