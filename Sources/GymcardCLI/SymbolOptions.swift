import ArgumentParser
import CampusFeature
import CardFeature
import GymcardCore

/// Options shared by every command that draws a symbol.
struct SymbolOptions: ParsableArguments {
    // A plain string, turned into a Symbology in validate(): argument-parser builds every option of the
    // command each time it parses, and an enum-typed option cost show's start-up more.
    @Option(
        name: .customLong("symbology"), help: SymbolOptions.symbologyHelp,
        completion: SymbolOptions.symbologyCompletion)
    var symbologyName: String?

    /// The symbology `--symbology` names, if given.
    var symbology: Symbology? { get throws { try symbologyName.map(Self.symbology) } }

    func validate() throws { _ = try symbology }

    @Option(name: .long, help: "Pixels per narrow bar (or module) in image output (1-32).")
    var scale: Int = 2

    @Option(name: .long, help: "Bar height in narrow-bar widths (modules), in image output (5-1000).")
    var height: Int = SymbolSettings.defaultBarHeight

    @Option(name: .long, help: "Codabar's wide:narrow bar ratio (2.0-3.0).")
    var ratio: Double = CodabarLayout.defaultRatio

    @Flag(name: .long, help: "Print the ID in text under the bars (image output).")
    var text = false

    @Flag(
        name: .customLong("check-digit"),
        help: "Codabar: add the mod-16 check character before the stop letter.")
    var checkDigit = false

    /// What these options ask of the drawing (checked by the use case that draws).
    var settings: SymbolSettings {
        SymbolSettings(
            narrowBarWidth: scale, barHeight: height, ratio: ratio, showsText: text,
            checkCharacter: checkDigit)
    }

    /// The option that gives `setting`, for messages.
    static func option(_ setting: SymbolSettings.Setting) -> String {
        switch setting {
        case .text: "--text"
        case .barHeight: "--height"
        case .ratio: "--ratio"
        case .checkCharacter: "--check-digit"
        }
    }
}

extension SymbolOptions {
    static let symbologyHelp = ArgumentHelp(
        "The symbology to draw a given ID in (default: codabar; a stored card is drawn in its own): \(symbologyNames).",
        valueName: "name")
    static let symbologyCompletion = CompletionKind.list(Symbology.allCases.map(\.name))

    /// Every symbology's name, for help texts.
    static let symbologyNames = Symbology.allCases.map(\.name).joined(separator: ", ")

    /// The symbology a `--symbology` value names (in any case), or a usage error that lists the names.
    static func symbology(_ name: String) throws -> Symbology {
        guard let symbology = Symbology(name: name) else {
            throw ValidationError("unknown symbology '\(name)'; use one of \(symbologyNames)")
        }
        return symbology
    }
}
