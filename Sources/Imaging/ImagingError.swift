import DynamicLoading
import FoundationEssentials

/// Why an image could not be read or written.
public enum ImagingError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The bytes are not an image format gymcard reads.
    case unrecognizedFormat
    /// An image format gymcard does not read but recognises (a GIF, a BMP), so the message can say what
    /// the file is and how to convert it.
    case unsupportedFormat(ForeignImageFormat)
    /// A HEIC, AVIF, WebP or TIFF image while the library that reads it is not installed (or lacks a
    /// function).
    case decoderMissing(ForeignImageFormat, LoadingError)
    /// A HEIC or AVIF photo larger than ``HEIFCodec/maximumPixels``, or a lossless WebP larger than
    /// ``WebPCodec/maximumLosslessPixels``: the library decodes these only at full size.
    case tooLargeToDecodeWhole(ForeignImageFormat, width: Int, height: Int)
    /// A TIFF whose compressed strips (or tiles) each decode to more than ``TIFFCodec/maximumStripBytes``:
    /// libtiff decodes a strip whole.
    case tooLargeToDecodeInParts(ForeignImageFormat, megabytes: Int)
    /// The file is cut short or its data is damaged; `detail` is the decoder's own words.
    case corrupt(format: String, detail: String)
    /// The header claims dimensions beyond ``ImageLimits``; refused before allocating.
    case tooLarge(width: Int, height: Int)
    /// The header claims zero width or height.
    case empty(format: String)
    /// A PAM file whose tuple type is no picture (netpbm's PAM also holds arbitrary arrays of numbers).
    case unsupportedPAMTupleType(String)
    /// The encoder failed (out of memory, an image too big for the format).
    case encodingFailed(detail: String)

    /// One line for a person: what happened and what to do.
    public var description: String {
        switch self {
        case .unrecognizedFormat:
            return "not an image gymcard reads; it reads photos saved as \(Self.readableFormats)"
        case .unsupportedFormat(let format):
            return "\(format.withArticle) image, which gymcard does not read; convert it to PNG or JPEG first"
                + (format.converter.map { " (\($0))" } ?? "")
        case .tooLargeToDecodeWhole(let format, let width, let height):
            let (kind, limit) =
                format == .webp
                ? ("lossless WebP images", WebPCodec.maximumLosslessPixels)
                : ("\(format.rawValue) photos", HEIFCodec.maximumPixels)
            return
                "the \(format.rawValue) image is \(width)×\(height) pixels; gymcard reads \(kind) of up to "
                + "\(limit / 1_000_000) megapixels (they are decoded whole); convert it to JPEG"
        case .tooLargeToDecodeInParts(let format, let megabytes):
            return
                "the \(format.rawValue) image is stored in strips of \(megabytes) MB each, more than the "
                + "\(TIFFCodec.maximumStripBytes >> 20) MB gymcard decodes at once; rewrite it in smaller strips "
                + "(tiffcp -r 64 from the libtiff-tools package) or convert it to PNG"
        case .decoderMissing(let format, let error):
            let why = error.isAbsent ? "which is not installed" : "but \(error)"
            return
                "\(format.withArticle) image; reading it needs \(error.library.name), \(why) "
                + "(Debian: \(error.library.installCommand))"
        case .corrupt(let format, let detail):
            return "the \(format) data is damaged or cut short (\(detail))"
        case .tooLarge(let width, let height):
            // Name the limit the image is over: a 20000×20000 image is within the side but not the area.
            if max(width, height) > ImageLimits.maximumSide {
                return
                    "the image claims to be \(width)×\(height) pixels, more than the \(ImageLimits.maximumSide) px "
                    + "per side gymcard reads"
            }
            return
                "the image claims to be \(width)×\(height) pixels (\((width * height + 500_000) / 1_000_000) "
                + "megapixels), more than the \(ImageLimits.maximumPixels / 1_000_000) megapixels gymcard reads"
        case .empty(let format):
            return "the \(format) image has no pixels"
        case .unsupportedPAMTupleType(let tupleType):
            return
                "a PAM file of tuple type \(tupleType.isEmpty ? "(none)" : tupleType), which holds no picture gymcard "
                + "reads; it reads BLACKANDWHITE, GRAYSCALE and RGB, with or without _ALPHA"
        case .encodingFailed(let detail):
            return "could not encode the image (\(detail))"
        }
    }

    /// The formats gymcard reads, for messages.
    public static let readableFormats = "JPEG, PNG, HEIC, AVIF, WebP, TIFF or PNM"

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
