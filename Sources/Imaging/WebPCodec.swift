import CWebP
import DynamicLoading

/// WebP (what browsers save) through libwebp, loaded with `dlopen` on the first WebP file
/// (``functions``), decoded straight to its luma plane and scaled inside libwebp.
public enum WebPCodec {
    /// libwebp's functions, bound on the first WebP file (docs/ARCHITECTURE.md §17).
    static let functions = DynamicLibrary.bind(
        .webp, names: gymcard_webp_function_names(), as: gymcard_webp_functions.self)

    /// Whether libwebp loads here (WebP images read).
    public static var isAvailable: Bool { loadingError == nil }

    /// Why its library cannot be bound, or `nil`.
    public static var loadingError: LoadingError? { functions.loadingError }

    /// The largest lossless WebP read, in pixels: libwebp decodes a lossless image whole, at 4 bytes a
    /// pixel (its back-references may reach any earlier pixel), so 50 MP takes 200 MB. Lossy WebPs are
    /// decoded a few rows at a time and stop only at ``ImageLimits`` (WebP itself stops at 16383 px a side).
    public static let maximumLosslessPixels = 50_000_000

    /// Decodes a WebP's first frame to 8-bit grey (its luma, transparent parts on white). The header's
    /// dimensions are checked against ``ImageLimits`` before decoding; libwebp averages a larger image down
    /// as it decodes, so that its longer side is still at least `minimumLongSide`.
    public static func decodeGray(_ bytes: [UInt8], minimumLongSide: Int = .max) throws(ImagingError)
        -> GrayImage
    {
        let webp = try functions.mapError { ImagingError.decoderMissing(.webp, $0) }.get()
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(ImagingError) -> GrayImage in
                try decode(buffer, with: webp, minimumLongSide: minimumLongSide)
            }
        }
        return try result.get()
    }

    private static func decode(
        _ buffer: UnsafeBufferPointer<UInt8>, with webp: gymcard_webp_functions, minimumLongSide: Int
    ) throws(ImagingError) -> GrayImage {
        var config = WebPDecoderConfig()
        guard webp.WebPInitDecoderConfigInternal(&config, gymcard_webp_decoder_abi_version) != 0 else {
            throw .corrupt(format: "WebP", detail: "libwebp did not start")
        }
        try check(
            webp.WebPGetFeaturesInternal(
                buffer.baseAddress, buffer.count, &config.input, gymcard_webp_decoder_abi_version))
        let (width, height) = (Int(config.input.width), Int(config.input.height))
        try ImageLimits.check(width: width, height: height, format: "WebP")
        // Format 2 is lossless.
        if config.input.format == 2, width * height > maximumLosslessPixels {
            throw .tooLargeToDecodeWhole(.webp, width: width, height: height)
        }
        if config.input.has_animation != 0 {
            throw .corrupt(format: "WebP", detail: "an animation; save one frame as a still image")
        }
        let factor = GrayRowReducer.factor(width: width, height: height, minimumLongSide: minimumLongSide)
        if factor > 1 {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(Swift.max(1, width / factor))
            config.options.scaled_height = Int32(Swift.max(1, height / factor))
        }
        let hasAlpha = config.input.has_alpha != 0
        config.output.colorspace = hasAlpha ? MODE_YUVA : MODE_YUV
        try check(webp.WebPDecode(buffer.baseAddress, buffer.count, &config))
        defer { webp.WebPFreeDecBuffer(&config.output) }
        let planes = config.output.u.YUVA
        let (outputWidth, outputHeight) = (Int(config.output.width), Int(config.output.height))
        guard outputWidth > 0, outputHeight > 0, let luma = planes.y else { throw .empty(format: "WebP") }
        var pixels = [UInt8](repeating: 255, count: outputWidth * outputHeight)
        for y in 0..<outputHeight {
            let row = luma + y * Int(planes.y_stride)
            let alpha = hasAlpha ? planes.a.map { $0 + y * Int(planes.a_stride) } : nil
            for x in 0..<outputWidth {
                // The Y plane is BT.601 video range (16…235): stretched to full range, onto white.
                let level = Swift.min(255, Swift.max(0, (Int(row[x]) - 16) * 255 / 219))
                let opacity = alpha.map { Int($0[x]) } ?? 255
                pixels[y * outputWidth + x] = UInt8((level * opacity + 255 * (255 - opacity)) / 255)
            }
        }
        return GrayImage(width: outputWidth, height: outputHeight, pixels: pixels)
    }

    private static func check(_ status: VP8StatusCode) throws(ImagingError) {
        switch status {
        case VP8_STATUS_OK: return
        case VP8_STATUS_NOT_ENOUGH_DATA: throw .corrupt(format: "WebP", detail: "the file ends early")
        case VP8_STATUS_BITSTREAM_ERROR: throw .corrupt(format: "WebP", detail: "bitstream error")
        case VP8_STATUS_UNSUPPORTED_FEATURE: throw .corrupt(format: "WebP", detail: "a feature libwebp lacks")
        case VP8_STATUS_OUT_OF_MEMORY: throw .corrupt(format: "WebP", detail: "out of memory")
        default: throw .corrupt(format: "WebP", detail: "libwebp status \(status.rawValue)")
        }
    }
}
