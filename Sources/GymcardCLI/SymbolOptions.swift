import ArgumentParser
import Codabar
import GymcardCore
import Symbols

/// Options shared by every command that draws a Codabar symbol.
struct SymbolOptions: ParsableArguments {
    @Option(name: .long, help: "Pixels per narrow bar in image output (1-32).")
    var scale: Int = 2

    @Option(name: .long, help: "Bar height in narrow-bar widths, in image output (5-1000).")
    var height: Int = 50

    @Option(name: .long, help: "Wide:narrow bar ratio (2.0-3.0).")
    var ratio: Double = CodabarLayout.defaultRatio

    @Flag(name: .long, help: "Print the ID in text under the bars (image output).")
    var text = false

    @Flag(name: .customLong("check-digit"), help: "Add the mod-16 check character before the stop letter.")
    var checkDigit = false

    /// The layout and image style these options describe; out-of-range values are usage errors.
    func style() throws -> BarcodeStyle {
        do {
            let layout = try CodabarLayout(ratio: ratio)
            return try BarcodeStyle(narrowBarWidth: scale, barHeight: height, showsText: text, layout: layout)
        } catch let error as CodabarError {
            throw Failure(error.description, status: .usage)
        } catch let error as SymbolError {
            throw Failure(error.description, status: .usage)
        }
    }
}
