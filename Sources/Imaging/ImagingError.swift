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
    case tooLargeToDecodeWhole(ForeignImageFormat, width: Int, height: Int)
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
            return "not an image gymcard reads; it reads photos saved as JPEG, PNG, HEIC or AVIF"
        case .unsupportedFormat(let format):
            return "\(format.withArticle) image, which gymcard does not read; convert it to JPEG or PNG first"
                + (format.converter.map { " (\($0))" } ?? "")
        case .tooLargeToDecodeWhole(let format, let width, let height):
            return
                "the \(format.rawValue) image is \(width)×\(height) pixels; gymcard reads \(format.rawValue) photos of up to "
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
