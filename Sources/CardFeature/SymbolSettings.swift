import Codabar
import GymcardCore
import Imaging
import Symbologies
import Symbols

/// How a command draws a card's symbol into an image (`show`, `render`): the image style, and the
/// settings that apply only to Codabar or only to the barcode's image, checked before any passphrase is
/// asked.
public struct SymbolSettings: Sendable {
    /// A setting that does not apply to every drawing.
    public enum Setting: Sendable, CaseIterable {
        /// The ID in text under the bars.
        case text
        /// The bar height.
        case barHeight
        /// Codabar's wide:narrow ratio.
        case ratio
        /// Codabar's mod-16 check character.
        case checkCharacter
    }

    /// Pixels per narrow bar (or module).
    public var narrowBarWidth: Int
    /// Bar height in narrow-bar widths (modules).
    public var barHeight: Int
    /// Codabar's wide:narrow bar ratio.
    public var ratio: Double
    /// Whether the ID is printed under the bars.
    public var showsText: Bool
    /// Whether a Codabar ID gets the mod-16 check character.
    public var checkCharacter: Bool

    /// The default bar height.
    public static let defaultBarHeight = 50

    /// Settings as given (the defaults where not).
    public init(
        narrowBarWidth: Int = 2, barHeight: Int = defaultBarHeight,
        ratio: Double = CodabarLayout.defaultRatio,
        showsText: Bool = false, checkCharacter: Bool = false
    ) {
        self.narrowBarWidth = narrowBarWidth
        self.barHeight = barHeight
        self.ratio = ratio
        self.showsText = showsText
        self.checkCharacter = checkCharacter
    }

    /// The settings given that differ from the defaults (a flag that is set).
    public var given: [Setting] {
        Setting.allCases.filter {
            switch $0 {
            case .text: showsText
            case .barHeight: barHeight != Self.defaultBarHeight
            case .ratio: ratio != CodabarLayout.defaultRatio
            case .checkCharacter: checkCharacter
            }
        }
    }

    /// The layout and image style.
    ///
    /// - Throws: ``SymbolFileProblem/tooLarge(width:height:)`` for bars taller than `scan` reads (before any
    ///   passphrase is asked), ``SymbolSettingsProblem/outOfRange(_:)`` for a value out of its range.
    public func style() throws -> BarcodeStyle {
        let inRange =
            BarcodeStyle.narrowBarWidths.contains(narrowBarWidth)
            && BarcodeStyle.barHeights.contains(barHeight)
        guard !inRange || barHeight * narrowBarWidth <= ImageLimits.maximumSide else {
            throw SymbolFileProblem.tooLarge(width: nil, height: barHeight * narrowBarWidth)
        }
        do {
            let layout = try CodabarLayout(ratio: ratio)
            return try BarcodeStyle(
                narrowBarWidth: narrowBarWidth, barHeight: barHeight, showsText: showsText, layout: layout)
        } catch let error as CodabarError {
            throw SymbolSettingsProblem.outOfRange(error.description)
        } catch let error as SymbolError {
            if case .ratioTooSmallForNarrowBars = error {
                throw SymbolSettingsProblem.barsTooThin(error.description)
            }
            throw SymbolSettingsProblem.outOfRange(error.description)
        }
    }

    /// Refuses the settings of the barcode's image when only the QR code is drawn: it has no text line, bar
    /// height or ratio (the narrow-bar width sets its module size).
    public func checkQROnly() throws(SymbolSettingsProblem) {
        if let setting = given.first(where: { [.text, .barHeight, .ratio].contains($0) }) {
            throw .notForQR(setting)
        }
    }

    /// Refuses the Codabar-only settings for a card of another symbology, and a linear symbol's for a 2D one.
    public func check(for symbology: Symbology) throws(SymbolSettingsProblem) {
        guard symbology != .codabar else { return }
        if let setting = [Setting.checkCharacter, .ratio].first(where: given.contains) {
            throw .onlyCodabar(setting, drawnAs: symbology)
        }
        // The PNG of a 2D symbol with --text or --height was the same picture as without: refused, as for
        // the QR code alone.
        if symbology.isTwoDimensional, let setting = [Setting.text, .barHeight].first(where: given.contains) {
            throw .onlyLinear(setting, drawnAs: symbology)
        }
    }

    /// What `show` draws: `id` in `symbology` (Codabar unless named), else the stored card in its own
    /// symbology (after its passphrase when it has one) with its label; then refuses the settings that do
    /// not apply to it.
    public func content(
        id: String?, symbology: Symbology?, stored access: () -> CardAccess, warn: (String) -> Void
    ) throws -> (content: BarcodeContent, label: String?) {
        let drawn: (content: BarcodeContent, label: String?)
        if let id {
            drawn = (
                try CardSymbol.content(
                    for: id, symbology: symbology ?? .codabar, checkCharacter: checkCharacter, warn: warn),
                nil
            )
        } else {
            guard symbology == nil else { throw SymbolSettingsProblem.symbologyForStoredCard }
            drawn = try CardSymbol.stored(access(), checkCharacter: checkCharacter)
        }
        try check(for: drawn.content.symbology)
        return drawn
    }
}

/// A setting that does not apply to what is drawn, or a value out of its range.
public enum SymbolSettingsProblem: Error, Equatable, CustomStringConvertible {
    /// A value out of its range: why.
    case outOfRange(String)
    /// A ratio whose wide bars, at the scale given, are too thin for readers to tell from narrow ones: why.
    case barsTooThin(String)
    /// A setting of the barcode's image, when only the QR code is drawn.
    case notForQR(SymbolSettings.Setting)
    /// A Codabar setting for a card drawn in another symbology.
    case onlyCodabar(SymbolSettings.Setting, drawnAs: Symbology)
    /// A linear symbol's setting (the text line, the bar height) for a 2D symbol, which has neither.
    case onlyLinear(SymbolSettings.Setting, drawnAs: Symbology)
    /// A symbology named for the stored card, which is drawn in its own.
    case symbologyForStoredCard

    /// What is wrong, without the command's option names.
    public var description: String {
        switch self {
        case .outOfRange(let reason), .barsTooThin(let reason): reason
        case .notForQR(let setting): "\(setting) is for the barcode's image; the QR code has none"
        case .onlyCodabar(let setting, let symbology):
            "\(setting) is for Codabar, and the ID is drawn as \(symbology.displayName)"
        case .onlyLinear(let setting, let symbology):
            "\(setting) is for a barcode's bars, and \(symbology.displayName) is a grid of modules"
        case .symbologyForStoredCard: "the stored card is drawn in its own symbology"
        }
    }
}
