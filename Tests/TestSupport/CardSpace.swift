import Codabar
import Foundation
import Symbologies

/// The image settings `show` and `render` take (their `--scale`, `--height`, `--ratio`, `--text` and
/// `--check-digit`).
public struct DrawingSettings: Sendable {
    /// Pixels per narrow bar or module (`--scale`).
    public var scale: Int
    /// Bar height in modules (`--height`).
    public var height: Int
    /// Codabar's wide:narrow ratio (`--ratio`).
    public var ratio: Double = 3.0
    /// The text line under a linear symbol (`--text`).
    public var showsText: Bool
    /// Codabar's mod-16 check character (`--check-digit`).
    public var checkCharacter = false

    /// The same settings as `show` options.
    public var options: [String] {
        ["--scale", "\(scale)", "--height", "\(height)"] + (showsText ? ["--text"] : [])
            + (ratio != 3.0 ? ["--ratio", "\(ratio)"] : []) + (checkCharacter ? ["--check-digit"] : [])
    }
}

/// One card gymcard may be asked to draw: a text in a symbology (with the encoding a card may name), and
/// the settings `show` takes for an image.
public struct DrawnCard: Sendable, CustomStringConvertible {
    /// Its place in the generated space (file names, messages).
    public var index: Int
    /// The text as a person types it or a Catima file holds it (before gymcard's normalization).
    public var typed: String
    /// The symbology it is drawn in.
    public var symbology: Symbology
    /// The encoding a card names (2D symbologies; `nil` for none).
    public var encoding: TextEncoding?
    /// How it is drawn.
    public var settings: DrawingSettings

    /// The card in a test's message: index, symbology, encoding, length, text (cut) and settings.
    public var description: String {
        let scalars = typed.unicodeScalars.count
        let shown = typed.unicodeScalars.count > 40 ? String(typed.prefix(40)) + "…" : typed
        return
            "#\(index) \(symbology.name) \(encoding?.rawValue ?? "-") \(scalars) chars '\(shown)' "
            + "scale \(settings.scale) height \(settings.height) ratio \(settings.ratio)"
            + "\(settings.showsText ? " text" : "")\(settings.checkCharacter ? " check" : "")"
    }

    /// What gymcard draws for it: the text normalized as `show --id` and `import` normalize it (a Codabar
    /// one with its mod-16 check character when the settings ask for it).
    public func content() throws -> BarcodeContent {
        guard symbology == .codabar, settings.checkCharacter else {
            return try BarcodeContent(symbology: symbology, normalizing: typed, encoding: encoding)
        }
        let symbol = try CodabarSymbol(normalizing: typed).addingCheckCharacter()
        return try BarcodeContent(symbology: .codabar, normalizing: symbol.text)
    }

    /// Whether `show` says first that no reader takes it: a Codabar ID of a single character (libzbar,
    /// zxing-cpp and most scanners read two or more between the start and stop letters).
    public var isSaidNotToScan: Bool {
        symbology == .codabar && ((try? content())?.text.count ?? 0) < 4
    }
}

/// The space of cards gymcard draws, generated from a seed: for every symbology, texts of every length it
/// takes (the shortest and longest among them), of every class of character it carries, with and without
/// a check digit where it has one, and in every encoding a 2D card may name; drawn at scales, bar heights,
/// ratios and with or without the text line, as `show` and `render` take them.
public enum CardSpace {
    /// The seed and cases per symbology a run uses: fixed in the suite, larger and random in
    /// `Benchmarks/roundtrip.sh` (`GYMCARD_ROUNDTRIP_SEED`, `GYMCARD_ROUNDTRIP_PER_SYMBOLOGY`).
    public static let seed = UInt64(ProcessInfo.processInfo.environment["GYMCARD_ROUNDTRIP_SEED"] ?? "") ?? 38
    /// Cards per symbology (`GYMCARD_ROUNDTRIP_PER_SYMBOLOGY`, default 80).
    public static let perSymbology =
        Int(ProcessInfo.processInfo.environment["GYMCARD_ROUNDTRIP_PER_SYMBOLOGY"] ?? "") ?? 80

    /// The symbologies a run covers: all, or those `GYMCARD_ROUNDTRIP_ONLY` names (comma-separated).
    public static let symbologies: [Symbology] = {
        guard let only = ProcessInfo.processInfo.environment["GYMCARD_ROUNDTRIP_ONLY"] else {
            return Symbology.allCases
        }
        return only.split(separator: ",").compactMap { Symbology(name: String($0)) }
    }()

    static let printableASCII = (0x20...0x7E).compactMap(Unicode.Scalar.init)
    static let latin1 = (0xA0...0xFF).compactMap(Unicode.Scalar.init)
    /// Beyond Latin-1: the Basic Multilingual Plane (two and three UTF-8 bytes) and beyond (four).
    static let beyondLatin1 = Array("€ŁŒšΩμДЖж中文한글ｶカード😀🎫𝄞".unicodeScalars)

    /// The cards of one symbology.
    public static func cards(_ symbology: Symbology, seed: UInt64 = seed, count: Int = perSymbology)
        -> [DrawnCard]
    {
        var generator = SeededGenerator(
            seed: seed &+ UInt64(Symbology.allCases.firstIndex(of: symbology) ?? 0) &* 0x9E37_79B9)
        return (0..<count).map { index in
            var card = DrawnCard(
                index: index, typed: "", symbology: symbology, encoding: nil,
                settings: settings(symbology, &generator))
            (card.typed, card.encoding) = text(symbology, index: index, count: count, &generator)
            return card
        }
    }

    /// A length for the `index`th card of `count` in `range`: the shortest and the longest first, then
    /// short ones (a member number), then any.
    static func length(_ range: ClosedRange<Int>, index: Int, count: Int, _ generator: inout SeededGenerator)
        -> Int
    {
        switch index {
        case 0: return range.lowerBound
        case 1: return range.upperBound
        case _ where index % 3 == 0:
            return Int.random(in: range.lowerBound...min(range.upperBound, 14), using: &generator)
        default: return Int.random(in: range, using: &generator)
        }
    }

    static func pick(_ characters: [Character], _ count: Int, _ generator: inout SeededGenerator) -> String {
        String((0..<count).map { _ in characters.randomElement(using: &generator) ?? "0" })
    }

    static func digits(_ count: Int, _ generator: inout SeededGenerator) -> String {
        pick(Array("0123456789"), count, &generator)
    }

    /// A GS1 text (EAN, UPC): `data` digits, with the check digit on every other card.
    static func gs1(_ data: Int, index: Int, _ generator: inout SeededGenerator) -> String {
        let digits = digits(data, &generator)
        guard index % 2 == 1 else { return digits }
        let values = digits.map { Int($0.asciiValue ?? 48) - 48 }
        var sum = 0
        for (offset, digit) in values.reversed().enumerated() { sum += digit * (offset % 2 == 0 ? 3 : 1) }
        return digits + String((10 - sum % 10) % 10)
    }

    static func text(_ symbology: Symbology, index: Int, count: Int, _ generator: inout SeededGenerator)
        -> (String, TextEncoding?)
    {
        switch symbology {
        case .codabar:
            // A Virginia Tech ID (nine digits) on every fifth card, as typed with a dash; otherwise any
            // start and stop letters around 1 to 40 characters of data.
            if index % 5 == 4 {
                let id = digits(9, &generator)
                return (String(id.prefix(4)) + "-" + String(id.dropFirst(4)), nil)
            }
            let letters = Array("ABCD")
            let data = pick(
                Array("0123456789-$:/.+"), length(1...40, index: index, count: count, &generator), &generator)
            let start = letters.randomElement(using: &generator) ?? "A"
            let stop = letters.randomElement(using: &generator) ?? "B"
            return ("\(start)\(data)\(stop)", nil)
        case .code39:
            let characters =
                Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-.$/+%") + (index % 4 == 0 ? [] : [" "])
            return (
                trimmed(pick(characters, length(1...85, index: index, count: count, &generator), &generator)),
                nil
            )
        case .code93, .code128:
            let longest = BarcodeContent.maximumLength(of: symbology)
            let characters = printableASCII.map(Character.init)
            var text = trimmed(
                pick(characters, length(1...longest, index: index, count: count, &generator), &generator))
            // Code 93 holds 107 symbol characters, two for a character outside its own 43 (gymcard refuses
            // more, saying why: SymbologiesTests).
            let own = Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ -.$/+%")
            while symbology == .code93, text.reduce(0, { $0 + (own.contains($1) ? 1 : 2) }) > 107 {
                text = trimmed(String(text.dropLast()))
            }
            return (text, nil)
        case .itf:
            let pairs = length(1...45, index: index, count: count, &generator)
            return (digits(2 * pairs, &generator), nil)
        case .ean8: return (gs1(7, index: index, &generator), nil)
        case .ean13: return (gs1(12, index: index, &generator), nil)
        case .upca: return (gs1(11, index: index, &generator), nil)
        case .upce:
            // 6 digits (number system 0), 7 (number system 0 or 1 first) or 8 (with the check digit gymcard
            // works out), which GS1's zero suppression writes (a sixth digit of 3 needs a third of 3 or more,
            // of 4 a fourth other than 0, of 5 to 9 a fifth other than 0: gymcard refuses the others, saying
            // why: SymbologiesTests).
            var six = (0..<6).map { _ in Int.random(in: 0...9, using: &generator) }
            if six[5] == 3 { six[2] = Int.random(in: 3...9, using: &generator) }
            if six[5] == 4 { six[3] = Int.random(in: 1...9, using: &generator) }
            if six[5] >= 5 { six[4] = Int.random(in: 1...9, using: &generator) }
            let digits = six.map(String.init).joined()
            switch index % 3 {
            case 0: return (digits, nil)
            default:
                let seven = (Bool.random(using: &generator) ? "1" : "0") + digits
                guard index % 3 == 2, let content = try? BarcodeContent(symbology: .upce, normalizing: seven)
                else { return (seven, nil) }
                return (content.text, nil)
            }
        case .qr, .pdf417, .datamatrix, .aztec:
            return twoDimensional(index: index, count: count, &generator)
        }
    }

    /// A 2D card's text: one class of character per card (digits, ASCII, Latin-1, beyond Latin-1, mixed),
    /// 1 to 500 characters, in an encoding the characters allow.
    static func twoDimensional(index: Int, count: Int, _ generator: inout SeededGenerator)
        -> (String, TextEncoding?)
    {
        let length = self.length(1...500, index: index, count: count, &generator)
        let classes: [[Unicode.Scalar]] = [
            Array("0123456789".unicodeScalars), printableASCII, latin1 + printableASCII,
            beyondLatin1 + printableASCII, printableASCII + latin1 + beyondLatin1,
        ]
        let chosen = classes[index % classes.count]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length { scalars.append(chosen.randomElement(using: &generator) ?? "0") }
        let text = trimmed(String(scalars))
        let fitsLatin1 = text.unicodeScalars.allSatisfy { $0.value <= 0xFF }
        let encodings: [TextEncoding?] = fitsLatin1 ? [nil, .isoLatin1, .utf8] : [nil, .utf8]
        return (text, encodings.randomElement(using: &generator) ?? nil)
    }

    /// White space at either end is no part of a card's text (gymcard trims it): replaced, not dropped,
    /// so that the length chosen stays.
    static func trimmed(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        for index in [0, scalars.count - 1] where index >= 0 && scalars[index].properties.isWhitespace {
            scalars[index] = "X"
        }
        return String(String.UnicodeScalarView(scalars))
    }

    /// What `show` and `render` take for an image: 1 to 6 pixels a module (and 10 now and then), bars 5 to
    /// 200 modules tall, Codabar's ratio from 2.0 to 3.0 (2.5 and up at 1 px: the style refuses less) with
    /// and without its check character, the text line on or off (a linear symbol's).
    static func settings(_ symbology: Symbology, _ generator: inout SeededGenerator) -> DrawingSettings {
        let scale =
            Int.random(in: 0..<8, using: &generator) == 0 ? 10 : Int.random(in: 1...6, using: &generator)
        let heights = [5, 8, 15, 30, 50, 50, 80, 200]
        var settings = DrawingSettings(
            scale: scale, height: heights.randomElement(using: &generator) ?? 50,
            showsText: Bool.random(using: &generator))
        // A 2D symbol has no text line and no bar height: show refuses both for it.
        if symbology.isTwoDimensional {
            settings.height = 50
            settings.showsText = false
        }
        if symbology == .codabar {
            let ratios = scale == 1 ? [2.5, 3.0] : [2.0, 2.25, 2.5, 2.75, 3.0]
            settings.ratio = ratios.randomElement(using: &generator) ?? 3.0
            settings.checkCharacter = Int.random(in: 0..<4, using: &generator) == 0
        }
        return settings
    }
}
