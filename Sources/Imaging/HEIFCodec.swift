import CHeif

/// HEIC (an iPhone's photos) and AVIF through libheif, loaded on first use (``HEIFLibrary``).
public enum HEIFCodec {
    /// The largest HEIF photo read, in pixels. libheif decodes only at full size (colour planes and all),
    /// so memory grows with the photo: a 48 MP HEIC peaked at 149 MB, and 64 MP (more than the largest
    /// HEIF a phone saves, an iPhone's 48 MP) stays under the 300 MB every image inside the limits gets.
    public static let maximumPixels = 64_000_000

    /// Decodes the primary image of a HEIF file (HEIC or AVIF) to 8-bit grey (its luma), turned as the
    /// file says. The file's dimensions are checked against ``ImageLimits`` before decoding; a photo
    /// larger than needed is then averaged down by whole blocks, so that its longer side is still at least
    /// `minimumLongSide` (or the photo's own).
    public static func decodeGray(_ bytes: [UInt8], format: ForeignImageFormat, minimumLongSide: Int = .max)
        throws(ImagingError) -> GrayImage
    {
        guard let heif = HEIFLibrary.shared else { throw .decoderMissing(format) }
        // libheif reads the bytes in place: the context lives and dies inside this scope.
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(ImagingError) -> GrayImage in
                try decode(buffer, with: heif, format: format, minimumLongSide: minimumLongSide)
            }
        }
        return try result.get()
    }

    private static func decode(
        _ buffer: UnsafeRawBufferPointer, with heif: HEIFLibrary, format: ForeignImageFormat,
        minimumLongSide: Int
    ) throws(ImagingError) -> GrayImage {
        let name = format.rawValue
        guard let context = heif.contextAllocate() else {
            throw .corrupt(format: name, detail: "libheif did not start")
        }
        defer { heif.contextFree(context) }
        try check(heif.readFromMemory(context, buffer.baseAddress, buffer.count, nil), format: name)
        var handle: OpaquePointer?
        try check(heif.primaryImageHandle(context, &handle), format: name)
        defer { heif.handleRelease(handle) }
        let (fileWidth, fileHeight) = (Int(heif.handleWidth(handle)), Int(heif.handleHeight(handle)))
        try ImageLimits.check(width: fileWidth, height: fileHeight, format: name)
        guard fileWidth * fileHeight <= maximumPixels else {
            throw .tooLargeToDecodeWhole(format, width: fileWidth, height: fileHeight)
        }
        var image: OpaquePointer?
        try check(
            heif.decodeImage(handle, &image, heif_colorspace_monochrome, heif_chroma_monochrome, nil),
            format: name)
        defer { heif.imageRelease(image) }
        let width = Int(heif.imageWidth(image, heif_channel_Y))
        let height = Int(heif.imageHeight(image, heif_channel_Y))
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif.planeReadOnly(image, heif_channel_Y, &stride) else {
            throw .empty(format: name)
        }
        // More than 8 bits (an HDR photo) come as 16-bit little-endian samples: keep the top 8.
        let shift = Int(heif.bitsPerPixelRange(image, heif_channel_Y)) - 8
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = plane + y * Int(stride)
            for x in 0..<width {
                pixels[y * width + x] =
                    shift > 0
                    ? UInt8(truncatingIfNeeded: (Int(row[2 * x]) | Int(row[2 * x + 1]) << 8) >> shift)
                    : row[x]
            }
        }
        let full = GrayImage(width: width, height: height, pixels: pixels)
        let longSide = Swift.max(width, height)
        let factor = Swift.max(1, longSide / Swift.max(1, minimumLongSide))
        return factor > 1 ? full.downscaled(toMaximumSide: (longSide + factor - 1) / factor) : full
    }

    private static func check(_ error: heif_error, format: String) throws(ImagingError) {
        guard error.code != heif_error_Ok else { return }
        // libheif's messages can end in a newline, and the message is one line on stderr.
        let message = error.message.map { String(cString: $0) } ?? ""
        let firstLine = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        throw .corrupt(
            format: format, detail: firstLine.isEmpty ? "libheif error \(error.code.rawValue)" : firstLine)
    }
}
