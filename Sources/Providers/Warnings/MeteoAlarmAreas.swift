import Foundation
import WeatherDomain

/// Which MeteoAlarm warnings concern a place, by the names of their areas.
///
/// **The rule.** A warning concerns a place when one of its areas (`areaNames`, MeteoAlarm's
/// `areaDesc`) has exactly the same words as the place's region (`Place.state`) or as the
/// place's name (`Place.name`). Words are compared without case and without diacritics
/// (`Bihać` is `Bihac`, `Đakovo` is `Dakovo`, `Köln` is `Koln`), and split at anything that is
/// not a letter or a digit (`Banja-Luka` is `Banja Luka`). The whole word sequence must be
/// equal: `Sarajevo` never matches `Istočno Sarajevo`, `Kreis Ahrweiler` never matches
/// `Ahrweiler`, and `Stadt München` never matches `Landkreis München`.
///
/// **Why so strict.** A name that is part of another region's name usually belongs to a
/// neighbour (a city and the district around it, East and West halves of a region); a
/// containment or prefix rule would show that neighbour's warnings. When the rule is unsure it
/// answers "no match": a place gets no MeteoAlarm warning rather than a wrong one.
///
/// **Limits.** MeteoAlarm feeds name their regions by their services' own conventions
/// (`Kreis …`, `Stadt …`, regions named after their main city, `EMMA_ID` codes without shapes),
/// so a place whose geocoded name or region is spelt differently (another language, an
/// administrative prefix, a translation such as `Vienna` for `Wien`) matches nothing and shows
/// no MeteoAlarm warning. A place known only by its coordinates (no name, no region) matches
/// nothing. Matching by point in polygon would lift these limits, but the feeds carry no shapes.
package enum MeteoAlarmAreas {
    /// The warnings of `warnings` that concern `place`, in their order.
    package static func warnings(_ warnings: [OfficialWarning], for place: Place) -> [OfficialWarning] {
        let names = placeNames(place)
        guard !names.isEmpty else { return [] }
        return warnings.filter { warning in warning.areaNames.contains { names.contains(words($0)) } }
    }

    /// Whether `areaName` is the place's region or name, by the rule above.
    package static func matches(_ place: Place, areaName: String) -> Bool {
        placeNames(place).contains(words(areaName))
    }

    /// The word sequences a place may match: its region's and its name's, empty ones left out.
    private static func placeNames(_ place: Place) -> [[String]] {
        [place.state, place.name].compactMap { $0.map(words) }.filter { !$0.isEmpty }
    }

    /// The words of `text`, lower-cased, without diacritics, split at anything but letters and digits.
    static func words(_ text: String) -> [String] {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var words: [String] = []
        var word = ""
        for character in folded {
            if character.isLetter || character.isNumber {
                word += strokeless[character] ?? String(character)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    /// Letters whose mark is part of the letter, so Unicode folding keeps them, spelt as their base letters.
    private static let strokeless: [Character: String] = [
        "đ": "d", "ð": "d", "ł": "l", "ø": "o", "ħ": "h", "ı": "i", "ŧ": "t", "æ": "ae", "œ": "oe", "þ": "th",
        "ß": "ss",
    ]
}
