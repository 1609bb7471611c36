import DynamicLoading
import FoundationEssentials
import Symbologies

/// Why a symbol could not be made or drawn.
public enum SymbolError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// libqrencode could not encode the text (out of memory, or too long for any version).
    case qrEncodingFailed
    /// A size parameter outside what gymcard draws.
    case outOfRange(name: String, value: Int, allowed: ClosedRange<Int>)
    /// 1 px narrow bars with 2 px wide ones: too fine a distinction for readers.
    case ratioTooSmallForNarrowBars(ratio: Double)
    /// The terminal is narrower than the smallest readable drawing.
    case terminalTooNarrow(requiredColumns: Int, availableColumns: Int)
    /// No form of the card (across, turned, its QR code) fits the terminal: what each needs, and the
    /// terminal's size (`rows` `nil` when it does not limit the drawing).
    case terminalTooSmall(needs: [ScreenNeed], columns: Int, rows: Int?)
    /// The image could not be encoded for the terminal (libpng failed).
    case imageEncoding(String)
    /// libzint, which draws every symbology but Codabar, is not installed (or lacks a function).
    case zintUnavailable(LoadingError)
    /// The encoder refused a text that passed validation (a 2D text beyond the symbol's capacity).
    case encodingFailed(symbology: Symbology, reason: String)

    /// Whether no drawing fits the terminal (a larger window, or an image file, would do).
    public var isTerminalTooSmall: Bool {
        switch self {
        case .terminalTooNarrow, .terminalTooSmall: true
        default: false
        }
    }

    /// One line for a person: what happened (what to do is the CLI's to add, ARCHITECTURE §3), but for a
    /// missing libzint, whose package the registry gives.
    public var description: String {
        switch self {
        case .qrEncodingFailed:
            return "libqrencode could not encode the ID as a QR code"
        case .outOfRange(let name, let value, let allowed):
            return "a \(name) of \(value) is out of range; use \(allowed.lowerBound) to \(allowed.upperBound)"
        case .ratioTooSmallForNarrowBars(let ratio):
            return
                "a ratio of \(ratio) at a scale of 1 gives 2-pixel wide bars that readers confuse with "
                + "narrow ones"
        case .imageEncoding(let reason):
            return "the image for the terminal could not be made: \(reason)"
        case .zintUnavailable(let error):
            return
                "\(error), and gymcard draws every "
                + "symbology but Codabar with it; \(error.library.installAdvice)"
        case .encodingFailed(let symbology, let reason):
            return "the ID could not be drawn as \(symbology.displayName): \(reason)"
        case .terminalTooNarrow(let required, let available):
            return
                "the barcode needs a terminal at least \(required) columns wide, this one has \(available)"
        case .terminalTooSmall(let needs, let columns, let rows):
            let size = rows.map { "\(columns)×\($0)" } ?? "\(columns) columns wide"
            let wants = needs.map { $0.wording(columns: columns, rows: rows) }
            let list =
                wants.dropLast().joined(separator: ", ") + (wants.count > 1 ? ", or " : "")
                + (wants.last ?? "")
            return "the terminal is \(size), too small for the card: it needs \(list)"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
