import FoundationEssentials

/// Why an image could not be read or written.
public enum ImagingError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The bytes are not an image format gymcard reads.
    case unrecognizedFormat
    /// An image format gymcard does not read but recognises (a browser's WebP, a GIF), so the message can
    /// say what the file is and how to convert it.
    case unsupportedFormat(ForeignImageFormat)
    /// A HEIC or AVIF photo while libheif, which reads them, is not installed.
    case decoderMissing(ForeignImageFormat)
    /// A HEIC or AVIF photo larger than ``HEIFCodec/maximumPixels``: libheif decodes only at full size.
    case tooLargeToDecodeWhole(format: String, width: Int, height: Int)
    /// The file is cut short or its data is damaged; `detail` is the decoder's own words.
    case corrupt(format: String, detail: String)
    /// The header claims dimensions beyond ``ImageLimits``; refused before allocating.
    case tooLarge(width: Int, height: Int)
    /// The header claims zero width or height.
    case empty(format: String)
    /// The encoder failed (out of memory, an image too big for the format).
    case encodingFailed(detail: String)

    /// One line for a person: what happened and what to do.
    public var description: String {
        switch self {
        case .unrecognizedFormat:
            return "not a JPEG or PNG image; gymcard reads photos saved as JPEG or PNG"
        case .unsupportedFormat(let format):
            return "\(format.withArticle) image, which gymcard does not read; convert it to JPEG or PNG first"
                + (format.converter.map { " (\($0))" } ?? "")
        case .tooLargeToDecodeWhole(let format, let width, let height):
            return
                "the \(format) image is \(width)×\(height) pixels; gymcard reads \(format) photos of up to "
                + "\(HEIFCodec.maximumPixels / 1_000_000) megapixels (they are decoded whole); convert it to JPEG"
        case .decoderMissing(let format):
            return
                "\(format.withArticle) image; reading it needs libheif, which is not installed (Debian: apt install libheif1)"
        case .corrupt(let format, let detail):
            return "the \(format) data is damaged or cut short (\(detail))"
        case .tooLarge(let width, let height):
            return
                "the image claims to be \(width)×\(height) pixels, more than the \(ImageLimits.maximumSide) px per side "
                + "and \(ImageLimits.maximumPixels / 1_000_000) megapixels gymcard reads"
        case .empty(let format):
            return "the \(format) image has no pixels"
        case .encodingFailed(let detail):
            return "could not encode the image (\(detail))"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

/// The largest image gymcard decodes, checked against the header before any pixel memory is allocated.
///
/// 200 MP covers every phone camera sold today (the largest sensors are 200 MP); a header claiming more
/// is damaged or hostile.
public enum ImageLimits {
    /// Longest side accepted, in pixels.
    public static let maximumSide = 20_000
    /// Most pixels accepted.
    public static let maximumPixels = 200_000_000

    static func check(width: Int, height: Int, format: String) throws(ImagingError) {
        guard width > 0, height > 0 else { throw .empty(format: format) }
        guard width <= maximumSide, height <= maximumSide, width * height <= maximumPixels else {
            throw .tooLarge(width: width, height: height)
        }
    }
}

/// An image format recognised by its signature besides JPEG and PNG: HEIC and AVIF are read through
/// libheif (``HEIFCodec``); the others are named and refused.
public enum ForeignImageFormat: String, Sendable, CaseIterable {
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

    /// Whether gymcard reads it (through libheif).
    public var isReadable: Bool { self == .heic || self == .avif }

    /// A Debian tool that converts it, when gymcard does not read it and it is common on the web.
    var converter: String? {
        switch self {
        case .heic, .avif: nil
        case .webp: "dwebp from the webp package converts it"
        case .gif, .bmp, .tiff: nil
        }
    }
}
