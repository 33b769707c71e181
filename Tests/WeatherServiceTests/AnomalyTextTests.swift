import Testing
import WeatherDomain

@testable import WeatherService

@Suite("How far from normal, in the reader's unit")
struct AnomalyTextTests {
    @Test(
        "a difference is scaled, never offset, and named in the reader's unit",
        arguments: [
            (Units.metric, 3.0, "3 °C above normal"), (.imperial, 3.0, "5 °F above normal"),
            (.standard, 3.0, "3 K above normal"), (.standard, -1.6, "2 K below normal"), (.metric, 0.3, "normal"),
        ])
    func anomaly(_ system: Units, _ celsius: Double, _ text: String) {
        #expect(PastWire.anomalyText(celsius, UnitChoice(system: system)) == text)
    }
}
