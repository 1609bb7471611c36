import CHeif
import DynamicLoading

/// HEIC (an iPhone's photos) and AVIF through libheif, loaded on first use (``HEIFLibrary``).
public enum HEIFCodec {
    /// Whether libheif loads here (HEIC and AVIF photos read).
    public static var isAvailable: Bool { loadingError == nil }

    /// Why libheif cannot be bound (or initialised), or `nil`.
    public static var loadingError: LoadingError? { HEIFLibrary.functions.loadingError }

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
        let heif = try HEIFLibrary.functions.mapError { ImagingError.decoderMissing(format, $0) }.get()
        // libheif reads the bytes in place: the context lives and dies inside this scope.
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(ImagingError) -> GrayImage in
                try decode(buffer, with: heif, format: format, minimumLongSide: minimumLongSide)
            }
        }
        return try result.get()
    }

    private static func decode(
        _ buffer: UnsafeRawBufferPointer, with heif: gymcard_heif_functions, format: ForeignImageFormat,
        minimumLongSide: Int
    ) throws(ImagingError) -> GrayImage {
        let name = format.rawValue
        guard let context = heif.heif_context_alloc() else {
            throw .corrupt(format: name, detail: "libheif did not start")
        }
        defer { heif.heif_context_free(context) }
        try check(
            heif.heif_context_read_from_memory_without_copy(context, buffer.baseAddress, buffer.count, nil),
            format: name)
        var handle: OpaquePointer?
        try check(heif.heif_context_get_primary_image_handle(context, &handle), format: name)
        defer { heif.heif_image_handle_release(handle) }
        let (fileWidth, fileHeight) = (
            Int(heif.heif_image_handle_get_width(handle)), Int(heif.heif_image_handle_get_height(handle))
        )
        try ImageLimits.check(width: fileWidth, height: fileHeight, format: name)
        guard fileWidth * fileHeight <= maximumPixels else {
            throw .tooLargeToDecodeWhole(format, width: fileWidth, height: fileHeight)
        }
        // Decoded as stored, with no colour conversion: Debian's libheif 1.15 cannot convert a colour
        // photo to monochrome ("Unsupported color conversion"), and the luma is all gymcard needs. A YCbCr
        // photo (4:2:0, 4:2:2 or 4:4:4, 8 or 10 bits) or a monochrome one comes with a Y plane; one stored
        // with the identity matrix (RGB) as R, G and B planes, combined here.
        var image: OpaquePointer?
        try check(
            heif.heif_decode_image(handle, &image, heif_colorspace_undefined, heif_chroma_undefined, nil),
            format: name)
        defer { heif.heif_image_release(image) }
        let channels =
            heif.heif_image_has_channel(image, heif_channel_Y) != 0
            ? [heif_channel_Y] : [heif_channel_R, heif_channel_G, heif_channel_B]
        var planes: [Plane] = []
        for channel in channels {
            var stride: Int32 = 0
            guard heif.heif_image_has_channel(image, channel) != 0,
                let samples = heif.heif_image_get_plane_readonly(image, channel, &stride)
            else { throw .corrupt(format: name, detail: "the image has neither a luma plane nor RGB planes") }
            planes.append(
                Plane(
                    samples: samples, stride: Int(stride),
                    shift: Int(heif.heif_image_get_bits_per_pixel_range(image, channel)) - 8))
        }
        let width = Int(heif.heif_image_get_width(image, channels[0]))
        let height = Int(heif.heif_image_get_height(image, channels[0]))
        guard width > 0, height > 0 else { throw .empty(format: name) }
        // An image with an alpha plane (heif-enc of a PNG with transparency) goes onto white, as PNG and
        // WebP do: its transparent parts are stored black, and read as a very dark photo.
        var alpha: Plane?
        var alphaStride: Int32 = 0
        if heif.heif_image_has_channel(image, heif_channel_Alpha) != 0,
            Int(heif.heif_image_get_width(image, heif_channel_Alpha)) == width,
            Int(heif.heif_image_get_height(image, heif_channel_Alpha)) == height,
            let samples = heif.heif_image_get_plane_readonly(image, heif_channel_Alpha, &alphaStride)
        {
            alpha = Plane(
                samples: samples, stride: Int(alphaStride),
                shift: Int(heif.heif_image_get_bits_per_pixel_range(image, heif_channel_Alpha)) - 8)
        }
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var level =
                    planes.count == 1
                    ? planes[0][x, y]
                    : (299 * planes[0][x, y] + 587 * planes[1][x, y] + 114 * planes[2][x, y] + 500) / 1000
                if let alpha { level = (level * alpha[x, y] + 255 * (255 - alpha[x, y]) + 127) / 255 }
                pixels[y * width + x] = UInt8(truncatingIfNeeded: level)
            }
        }
        let full = GrayImage(width: width, height: height, pixels: pixels)
        let longSide = Swift.max(width, height)
        let factor = Swift.max(1, longSide / Swift.max(1, minimumLongSide))
        return factor > 1 ? full.downscaled(toMaximumSide: (longSide + factor - 1) / factor) : full
    }

    /// One plane of a decoded image, as libheif lends it.
    private struct Plane {
        let samples: UnsafePointer<UInt8>
        let stride: Int
        /// Bits beyond 8: more than 8 bits (an HDR photo) come as 16-bit little-endian samples, of which
        /// the top 8 are kept.
        let shift: Int

        subscript(x: Int, y: Int) -> Int {
            let row = samples + y * stride
            return shift > 0 ? (Int(row[2 * x]) | Int(row[2 * x + 1]) << 8) >> shift : Int(row[x])
        }
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
