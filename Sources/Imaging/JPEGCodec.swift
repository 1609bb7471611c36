import CTurboJPEG

/// JPEG through TurboJPEG's `tj*` API, which reports errors by return value (no setjmp reaches Swift).
public enum JPEGCodec {
    /// The three bytes every JPEG starts with (SOI and the first marker's prefix).
    public static let signature: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// Decodes to 8-bit grey, using TurboJPEG's DCT scaling (1/2, 1/4, 1/8 …) so that a large photo is
    /// never decoded at full size: the result's longer side is the smallest available one that is still
    /// at least `minimumLongSide` (or full size when the photo is smaller).
    ///
    /// The header's dimensions are checked against ``ImageLimits`` before anything is allocated. A file
    /// cut short is refused (TurboJPEG would fill the missing part with grey and only warn).
    public static func decodeGray(_ bytes: [UInt8], minimumLongSide: Int = .max) throws(ImagingError)
        -> GrayImage
    {
        guard bytes.starts(with: signature) else { throw .unrecognizedFormat }
        guard let handle = tjInitDecompress() else {
            throw .corrupt(format: "JPEG", detail: "TurboJPEG did not start")
        }
        defer { tjDestroy(handle) }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer { buffer in
            tjDecompressHeader3(
                handle, buffer.baseAddress, UInt(buffer.count), &width, &height, &subsampling, &colorspace)
        }
        guard header == 0 else { throw .corrupt(format: "JPEG", detail: errorText(handle)) }
        // A truncated file can report 0×0 (ARCHITECTURE §9).
        try ImageLimits.check(width: Int(width), height: Int(height), format: "JPEG")
        let factor = scalingFactor(width: Int(width), height: Int(height), minimumLongSide: minimumLongSide)
        let scaledWidth = Int(gymcard_tj_scaled(width, factor))
        let scaledHeight = Int(gymcard_tj_scaled(height, factor))
        // TurboJPEG refuses to turn a CMYK (or YCCK) JPEG into grey: it is decoded as CMYK and converted.
        let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        let (format, samplesPerPixel) = isCMYK ? (TJPF_CMYK, 4) : (TJPF_GRAY, 1)
        var samples = [UInt8](repeating: 128, count: scaledWidth * scaledHeight * samplesPerPixel)
        let decoded = samples.withUnsafeMutableBufferPointer { destination in
            bytes.withUnsafeBufferPointer { source in
                tjDecompress2(
                    handle, source.baseAddress, UInt(source.count), destination.baseAddress,
                    Int32(scaledWidth), 0,
                    Int32(scaledHeight), Int32(format.rawValue), 0)
            }
        }
        if decoded != 0 {
            let message = errorText(handle)
            // Warnings leave a usable image, except the one that says the data ran out.
            if tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) || message.contains("Premature end") {
                throw .corrupt(format: "JPEG", detail: message)
            }
        }
        let pixels = isCMYK ? grayFromCMYK(samples, isInverted: hasAdobeMarker(bytes)) : samples
        return GrayImage(width: scaledWidth, height: scaledHeight, pixels: pixels)
    }

    /// Encodes a grey image as a baseline greyscale JPEG (used to make test photos).
    public static func encode(_ image: GrayImage, quality: Int) throws(ImagingError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else {
            throw .encodingFailed(detail: "the image has no pixels")
        }
        guard let handle = tjInitCompress() else { throw .encodingFailed(detail: "TurboJPEG did not start") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = image.pixels.withUnsafeBufferPointer { source in
            tjCompress2(
                handle, source.baseAddress, Int32(image.width), 0, Int32(image.height),
                Int32(TJPF_GRAY.rawValue),
                &output, &size, Int32(TJSAMP_GRAY.rawValue), Int32(min(100, max(1, quality))), 0)
        }
        defer { tjFree(output) }
        guard status == 0, let output else { throw .encodingFailed(detail: errorText(handle)) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    /// Grey from CMYK samples, by the naive formula (no colour management: enough for a barcode's dark
    /// and light). TurboJPEG hands the samples back as stored; Photoshop and every writer that puts an
    /// Adobe marker in the file (libjpeg, ImageMagick) store them inverted, 255 meaning no ink.
    static func grayFromCMYK(_ samples: [UInt8], isInverted: Bool) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: samples.count / 4)
        for index in pixels.indices {
            func paper(_ offset: Int) -> Int {
                let value = Int(samples[4 * index + offset])
                return isInverted ? value : 255 - value
            }
            let black = paper(3)
            let (red, green, blue) = (paper(0) * black / 255, paper(1) * black / 255, paper(2) * black / 255)
            pixels[index] = UInt8((299 * red + 587 * green + 114 * blue + 500) / 1000)
        }
        return pixels
    }

    /// Whether an APP14 "Adobe" segment stands among the markers before the image data.
    static func hasAdobeMarker(_ bytes: [UInt8]) -> Bool {
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            // Start of scan: the markers are over.
            if marker == 0xDA { return false }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if marker == 0xEE, offset + 9 <= bytes.count,
                bytes[offset + 4..<offset + 9].elementsEqual("Adobe".utf8)
            {
                return true
            }
            offset += 2 + length
        }
        return false
    }

    private static func scalingFactor(width: Int, height: Int, minimumLongSide: Int) -> tjscalingfactor {
        var count: Int32 = 0
        let full = tjscalingfactor(num: 1, denom: 1)
        guard let factors = tjGetScalingFactors(&count) else { return full }
        let longSide = Int32(max(width, height))
        var best = full
        var bestSide = longSide
        // Only the reducing factors (num < denom); pick the smallest result still long enough.
        for factor in UnsafeBufferPointer(start: factors, count: Int(count)) where factor.num < factor.denom {
            let side = gymcard_tj_scaled(longSide, factor)
            if side >= minimumLongSide, side < bestSide {
                best = factor
                bestSide = side
            }
        }
        return best
    }

    private static func errorText(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "TurboJPEG gave no reason" }
        return String(cString: text)
    }
}
