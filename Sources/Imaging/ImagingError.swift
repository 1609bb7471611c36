import FoundationEssentials

/// Why an image could not be read or written.
public enum ImagingError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The bytes are not an image format gymcard reads.
    case unrecognizedFormat
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
            return "not a JPEG or PNG image"
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
