import Glibc

/// Reads a photo from a file or standard input and decodes it, whatever its format.
public enum ImageFile {
    /// Why a photo's bytes could not be read (as opposed to decoded).
    public enum ReadError: Error, Equatable, Sendable, CustomStringConvertible {
        /// No such file.
        case missing(path: String)
        /// A directory was given.
        case directory(path: String)
        /// The file exists but cannot be read.
        case unreadable(path: String, reason: String)
        /// The file is empty.
        case empty(path: String)
        /// The file is larger than ``ImageFile/maximumFileBytes``.
        case tooLarge(path: String)

        /// One line for a person.
        public var description: String {
            switch self {
            case .missing(let path): return "\(path): no such file"
            case .directory(let path): return "\(path) is a directory, not a photo"
            case .unreadable(let path, let reason): return "\(path): cannot read it (\(reason))"
            case .empty(let path): return "\(path) is empty (0 bytes)"
            case .tooLarge(let path):
                return
                    "\(path) is larger than \(maximumFileBytes >> 20) MiB, more than any photo or scan of a "
                    + "card needs; save it as PNG, JPEG or a compressed TIFF, or scan at 300 dpi"
            }
        }
    }

    /// Largest file read: a 200 MP JPEG at high quality is well under this, an uncompressed scan of a page in
    /// colour at 1200 dpi (404 MB as PNM) over it.
    public static let maximumFileBytes = 256 * 1024 * 1024

    /// The whole file (or standard input for `-`).
    public static func readBytes(path given: String) throws(ReadError) -> [UInt8] {
        let path = given == "-" ? "standard input" : given
        let descriptor: Int32
        if given == "-" {
            descriptor = STDIN_FILENO
        } else {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                switch errno {
                case ENOENT, ENOTDIR: throw .missing(path: path)
                default: throw .unreadable(path: path, reason: String(cString: strerror(errno)))
                }
            }
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw .directory(path: path)
        }
        var bytes: [UInt8] = []
        if status.st_mode & S_IFMT == S_IFREG {
            guard status.st_size <= maximumFileBytes else { throw .tooLarge(path: path) }
            bytes.reserveCapacity(Int(status.st_size))
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EISDIR { throw .directory(path: path) }
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
            guard bytes.count <= maximumFileBytes else { throw .tooLarge(path: path) }
        }
        guard !bytes.isEmpty else { throw .empty(path: path) }
        return bytes
    }

    /// The number of pages (images) in the file: more than 1 only for a multi-page TIFF.
    public static func pageCount(_ bytes: [UInt8]) throws(ImagingError) -> Int {
        ForeignImageFormat(signatureOf: bytes) == .tiff ? try TIFFCodec.pageCount(bytes) : 1
    }

    /// Decodes JPEG, PNG, HEIC, AVIF, WebP, TIFF or PNM bytes to grey, recognising the format by its
    /// signature, not the file name; `page` (0 is the first) chooses a page of a multi-page TIFF.
    ///
    /// Large images are decoded at reduced scale: the result's longer side is at least `minimumLongSide`
    /// (or the photo's own). TurboJPEG scales JPEGs by its factors; libwebp scales WebPs as it decodes;
    /// PNG, TIFF and PNM are averaged down row by row; libheif decodes HEIC and AVIF only whole, which are
    /// then averaged down.
    public static func decodeGray(_ bytes: [UInt8], page: Int = 0, minimumLongSide: Int = .max)
        throws(ImagingError) -> GrayImage
    {
        if bytes.starts(with: JPEGCodec.signature) {
            return try JPEGCodec.decodeGray(bytes, minimumLongSide: minimumLongSide)
        }
        if bytes.starts(with: PNGCodec.signature) {
            return try PNGCodec.decodeGray(bytes, minimumLongSide: minimumLongSide)
        }
        if PNMCodec.hasSignature(bytes) {
            return try PNMCodec.decodeGray(bytes, minimumLongSide: minimumLongSide)
        }
        switch ForeignImageFormat(signatureOf: bytes) {
        case .heic: return try HEIFCodec.decodeGray(bytes, format: .heic, minimumLongSide: minimumLongSide)
        case .avif: return try HEIFCodec.decodeGray(bytes, format: .avif, minimumLongSide: minimumLongSide)
        case .webp: return try WebPCodec.decodeGray(bytes, minimumLongSide: minimumLongSide)
        case .tiff: return try TIFFCodec.decodeGray(bytes, page: page, minimumLongSide: minimumLongSide)
        case .some(let format): throw .unsupportedFormat(format)
        case nil: throw .unrecognizedFormat
        }
    }
}
