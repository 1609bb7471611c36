import ArgumentParser
import Codabar
import GymcardCore
import Imaging
import Symbologies
import Symbols

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
    var height: Int = 50

    @Option(name: .long, help: "Codabar's wide:narrow bar ratio (2.0-3.0).")
    var ratio: Double = CodabarLayout.defaultRatio

    @Flag(name: .long, help: "Print the ID in text under the bars (image output).")
    var text = false

    @Flag(
        name: .customLong("check-digit"),
        help: "Codabar: add the mod-16 check character before the stop letter.")
    var checkDigit = false

    /// The layout and image style these options describe; out-of-range values are usage errors.
    func style() throws -> BarcodeStyle {
        // Before any passphrase is asked: the bars alone would be taller than scan reads.
        let inRange = BarcodeStyle.narrowBarWidths.contains(scale) && BarcodeStyle.barHeights.contains(height)
        guard !inRange || height * scale <= ImageLimits.maximumSide else {
            throw SymbolFileProblem.tooLarge(width: nil, height: height * scale)
        }
        do {
            let layout = try CodabarLayout(ratio: ratio)
            return try BarcodeStyle(narrowBarWidth: scale, barHeight: height, showsText: text, layout: layout)
        } catch let error as CodabarError {
            throw Failure(error.description, status: .usage)
        } catch let error as SymbolError {
            throw Failure(error.description, status: .usage)
        }
    }

    /// Refuses the options of the barcode's image when only the QR code is drawn: it has no text line, bar
    /// height or ratio (`--scale` sets its module size).
    func checkQROnly() throws {
        for (option, given) in [
            ("--text", text), ("--height", height != 50), ("--ratio", ratio != CodabarLayout.defaultRatio),
        ] where given {
            throw Failure(
                "\(option) is for the barcode's image (--png, --svg); the QR code has none", status: .usage)
        }
    }

    /// Refuses the Codabar-only options for a card of another symbology.
    func check(for symbology: Symbology) throws {
        guard symbology != .codabar else { return }
        for (option, given) in [
            ("--check-digit", checkDigit), ("--ratio", ratio != CodabarLayout.defaultRatio),
        ] where given {
            throw Failure(
                "\(option) is for Codabar, and the ID is drawn as \(symbology.displayName)", status: .usage)
        }
    }
}

extension SymbolOptions {
    static let symbologyHelp = ArgumentHelp(
        "The symbology to draw the ID in (default: codabar; show: the stored card's): \(symbologyNames).",
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
