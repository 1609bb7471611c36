import ArgumentParser
import Codabar
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

    /// The symbol to draw for an ID, with the check character when asked.
    func symbol(for id: String) throws -> CodabarSymbol {
        let symbol: CodabarSymbol
        do { symbol = try CodabarSymbol(normalizing: id) } catch {
            throw Failure("invalid ID: \(error.description)", status: .dataError)
        }
        Self.warnIfMistyped(id)
        return try finished(symbol)
    }

    /// The symbol with the check character added when `--check-digit` was given.
    func finished(_ symbol: CodabarSymbol) throws -> CodabarSymbol {
        guard checkDigit else { return symbol }
        do { return try symbol.addingCheckCharacter() } catch {
            throw Failure("invalid ID: \(error.description)", status: .dataError)
        }
    }

    /// Says so on stderr when an ID looks like a Virginia Tech ID with a digit too many or too few.
    static func warnIfMistyped(_ id: String) {
        guard CodabarSymbol.looksLikeMistypedVirginiaTechID(id) else { return }
        let digits = id.filter(\.isNumber).count
        Terminal.standardError.say(
            "warning: the ID has \(digits) digits, so it is not a 9-digit VT ID; it is used as typed")
    }
}
