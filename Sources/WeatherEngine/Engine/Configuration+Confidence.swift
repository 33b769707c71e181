import Providers
import WeatherDomain

/// The sources of how sure a forecast is: Open-Meteo's Ensemble API for one model, its forecast API for several
/// deterministic models, and MET Norway's own percentiles when MET Norway is the provider.
package struct ConfidenceSources: Sendable {
    package var ensemble: OpenMeteoEnsemble
    /// The ensemble model asked for (`--ensemble-model`).
    package var model: String
    package var models: OpenMeteoModels
    /// MET Norway, when it is the provider: its percentiles serve instead of an ensemble's members.
    package var metNorway: MetNorwayProvider?

    package init(
        ensemble: OpenMeteoEnsemble, model: String, models: OpenMeteoModels, metNorway: MetNorwayProvider? = nil
    ) {
        self.ensemble = ensemble
        self.model = model
        self.models = models
        self.metNorway = metNorway
    }
}

extension Configuration {
    /// The confidence sources these settings choose, MET Norway's percentiles with `provider` when it is MET
    /// Norway.
    package func makeConfidenceSources(provider: any WeatherProvider) -> ConfidenceSources {
        ConfidenceSources(
            ensemble: OpenMeteoEnsemble(baseURL: openMeteoEnsembleBaseURL), model: ensembleModel,
            models: OpenMeteoModels(baseURL: openMeteoBaseURL), metNorway: provider as? MetNorwayProvider)
    }
}

extension OptionValue {
    /// `--ensemble-model`: an Open-Meteo model name, 2 to 64 of lower-case letters, digits and `_`.
    static var modelName: OptionValue<String> {
        OptionValue<String>(
            placeholder: "MODEL",
            read: { text throws(OptionRefusal) in
                guard ModelComparison.isModelName(text) else {
                    throw OptionRefusal("must be an Open-Meteo model name such as ecmwf_ifs025")
                }
                return text
            }, write: { $0 })
    }
}
