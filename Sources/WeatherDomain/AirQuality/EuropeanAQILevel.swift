/// The level of a European Air Quality Index value, by the European Environment Agency's six bands.
///
/// On the 0–100+ scale Open-Meteo computes: up to 20 good, 40 fair, 60 moderate, 80 poor,
/// 100 very poor, above 100 extremely poor. A value on a boundary belongs to the lower band.
package enum EuropeanAQILevel: String, Sendable, Equatable, CaseIterable {
    case good
    case fair
    case moderate
    case poor
    case veryPoor = "very poor"
    case extremelyPoor = "extremely poor"

    /// The level of an index value; a negative value (not seen) reads as good.
    package init(index: Double) {
        switch index {
        case ...20: self = .good
        case ...40: self = .fair
        case ...60: self = .moderate
        case ...80: self = .poor
        case ...100: self = .veryPoor
        default: self = .extremelyPoor
        }
    }
}
