/// The countries MeteoAlarm serves, by ISO 3166-1 alpha-2 code, with the name of each country's feed.
///
/// MeteoAlarm (EUMETNET) names its feeds after countries, not codes: `feeds-<name>` in the
/// warnings API and `meteoalarm-legacy-atom-<name>` in the Atom feeds, with the same names in both
/// (the list published on feeds.meteoalarm.org). A country not in this table has no MeteoAlarm
/// coverage: weatherd then reports no official warnings for it rather than guessing a feed.
package enum MeteoAlarmFeeds {
    /// Feed names by upper-case country code.
    package static let byCountry: [String: String] = [
        "AD": "andorra", "AT": "austria", "BA": "bosnia-herzegovina", "BE": "belgium", "BG": "bulgaria",
        "CH": "switzerland", "CY": "cyprus", "CZ": "czechia", "DE": "germany", "DK": "denmark", "EE": "estonia",
        "ES": "spain", "FI": "finland", "FR": "france", "GB": "united-kingdom", "GR": "greece", "HR": "croatia",
        "HU": "hungary", "IE": "ireland", "IL": "israel", "IS": "iceland", "IT": "italy", "LT": "lithuania",
        "LU": "luxembourg", "LV": "latvia", "MD": "moldova", "ME": "montenegro", "MK": "republic-of-north-macedonia",
        "MT": "malta", "NL": "netherlands", "NO": "norway", "PL": "poland", "PT": "portugal", "RO": "romania",
        "RS": "serbia", "SE": "sweden", "SI": "slovenia", "SK": "slovakia", "UA": "ukraine",
    ]

    /// The feed name of a country code in any case (`ba`, `BA`); nil when MeteoAlarm does not serve it.
    package static func feed(country: String) -> String? {
        byCountry[country.trimmingWhitespace.uppercased()]
    }
}
