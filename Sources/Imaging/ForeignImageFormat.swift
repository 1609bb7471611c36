/// An image format recognised by its signature besides JPEG, PNG and PNM, read through a library loaded
/// only for it (HEIC and AVIF through libheif, WebP through libwebp, TIFF through libtiff) or, for GIF and
/// BMP, named and refused.
public enum ForeignImageFormat: String, Sendable {
    case heic = "HEIC"
    case avif = "AVIF"
    case webp = "WebP"
    case gif = "GIF"
    case bmp = "BMP"
    case tiff = "TIFF"

    /// The format recognised from a file's first bytes, if it is one of these.
    public init?(signatureOf bytes: [UInt8]) {
        func ascii(_ range: Range<Int>) -> String? {
            range.upperBound <= bytes.count ? String(decoding: bytes[range], as: UTF8.self) : nil
        }
        // HEIF and AVIF are ISO media files: a `ftyp` box first, then the major brand.
        if ascii(4..<8) == "ftyp", let brand = ascii(8..<12) {
            if ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1"].contains(
                brand)
            {
                self = .heic
                return
            }
            if ["avif", "avis"].contains(brand) {
                self = .avif
                return
            }
        }
        if ascii(0..<4) == "RIFF", ascii(8..<12) == "WEBP" {
            self = .webp
        } else if ascii(0..<4) == "GIF8" {
            self = .gif
        } else if ascii(0..<2) == "BM", bytes.count >= 26 {
            self = .bmp
        } else if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00])
            || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
        {
            self = .tiff
        } else {
            return nil
        }
    }

    /// "a HEIC", "an AVIF": the name with its article, to begin a sentence.
    var withArticle: String { (self == .avif ? "an " : "a ") + rawValue }

    /// Whether gymcard reads it (through a library loaded only for such a file).
    public var isReadable: Bool { self != .gif && self != .bmp }

    /// A Debian tool that converts it, when gymcard does not read it.
    var converter: String? {
        switch self {
        case .gif: "giftopnm from the netpbm package converts it"
        case .bmp: "bmptopnm from the netpbm package converts it"
        default: nil
        }
    }
}
