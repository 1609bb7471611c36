import Symbologies

/// Where the independent readers name or write a card otherwise than gymcard, and why: each difference is
/// a fact of the reader, checked on symbols zint draws too, never a wrong read.
public enum ReaderDifference {
    /// Whether zxing-cpp 3.x's read (`format` as its Python module names it, `text` as it prints it) is the
    /// card `content`:
    /// - UPC-A is reported as the EAN-13 it is (a leading 0), and UPC-E as the EAN-13 of the UPC-A it
    ///   abbreviates (zxing-cpp 3.1.1, `TextMode.HRI` and `Plain` alike).
    /// - Code 39 pairs of its full-ASCII form (`+A`, `%U`, `/A` …) are read as the characters they stand for
    ///   (zxing-cpp then names the format `Code39Ext`): gymcard draws and reads Code 39 as its 43 characters.
    public static func zxingAgrees(format: String, text: String, with content: BarcodeContent) -> Bool {
        let exact = Array(text.unicodeScalars) == Array(content.text.unicodeScalars)
        switch content.symbology {
        case .code39:
            return (format == "Code 39" && exact)
                || (format == "Code 39 Extended" && hasFullASCIIPair(content.text))
        case .upca: return (format == "UPC-A" && exact) || (format == "EAN-13" && text == "0" + content.text)
        case .upce: return (format == "UPC-E" || format == "EAN-13") && text == "0" + upcA(of: content.text)
        default: return format == zxingName(content.symbology) && exact
        }
    }

    /// zxing-cpp 3.1's Python module's name of a format (`str(BarcodeFormat.DataMatrix)`).
    static func zxingName(_ symbology: Symbology) -> String {
        switch symbology {
        case .itf: "ITF"
        case .aztec: "Aztec"
        default: symbology.displayName
        }
    }

    /// Whether zxing-cpp 3.x reads the card at all: it reads no Interleaved 2 of 5 of two digits (zxing-cpp
    /// 3.1.1 reads four and more; gymcard draws two, as zint does).
    public static func zxingReads(_ content: BarcodeContent) -> Bool {
        !(content.symbology == .itf && content.text.count == 2)
    }

    /// Whether a Code 39 text holds a pair its full-ASCII form would read as another character.
    static func hasFullASCIIPair(_ text: String) -> Bool {
        zip(text, text.dropFirst()).contains { first, second in
            "$%/+".contains(first) && second.isLetter && second.isUppercase
        }
    }

    /// The 12 digits of the UPC-A a UPC-E text (number system, six digits, check digit) abbreviates.
    static func upcA(of upce: String) -> String {
        let digits = upce.map { Int($0.asciiValue ?? 48) - 48 }
        let system = digits[0]
        let d = Array(digits[1...6])
        let expanded: [Int]
        switch d[5] {
        case 0, 1, 2: expanded = [system, d[0], d[1], d[5], 0, 0, 0, 0, d[2], d[3], d[4]]
        case 3: expanded = [system, d[0], d[1], d[2], 0, 0, 0, 0, 0, d[3], d[4]]
        case 4: expanded = [system, d[0], d[1], d[2], d[3], 0, 0, 0, 0, 0, d[4]]
        default: expanded = [system, d[0], d[1], d[2], d[3], d[4], 0, 0, 0, 0, d[5]]
        }
        return expanded.map(String.init).joined() + String(digits[7])
    }

    /// Whether zbarimg reads the card as drawn: libzbar 0.23.92 decodes no UPC-E of number system 1
    /// (zxing-cpp does), and zbarimg, which reads the image as it is, no symbol drawn at 1 px a module or
    /// narrow bar (QR, EAN and Code 128 among them; gymcard's scan enlarges such an image).
    public static func zbarReads(_ content: BarcodeContent, moduleWidth: Int) -> Bool {
        content.symbology.zbarName != nil && !(content.symbology == .upce && content.text.hasPrefix("1"))
            && moduleWidth > 1
    }

    /// zbarimg's options for reading a symbology as gymcard draws it: Codabar from one data character
    /// (its default needs two), Interleaved 2 of 5 from 2 digits (default 6), UPC-A as such (default: as the
    /// EAN-13 with a leading 0), UPC-E as such (default: as the UPC-A, or EAN-13, it stands for).
    public static func zbarOptions(_ symbology: Symbology) -> [String] {
        switch symbology {
        case .upce: ["-Sean13.disable", "-Supce.enable"]
        default: ["-Scodabar.min-length=3", "-Si25.min-length=2", "-Supca.enable"]
        }
    }
}
