import CDmtx
import DynamicLoading
import Imaging
import Symbologies

/// libdmtx (Debian's 0.7.7), a decoder for Data Matrix alone, behind a Swift value: grey image in, the
/// symbol it found out. The third engine: stages after zxing-cpp's, where nothing was trusted yet. It
/// finds a symbol by its L-shaped finder along edges at any angle, where zxing-cpp 1.4 (rows only here,
/// see ``ZXingReader``) misses soft, turned and far ones: on 128 generated photos of a Data Matrix card it
/// read 8 that gymcard's other stages missed (ARCHITECTURE §14).
///
/// Its search is bounded by work, as the whole cascade is (ARCHITECTURE §5): at most ``maximumLocations``
/// points of libdmtx's scan grid are looked at, so a photo reads the same on a loaded machine as on an
/// idle one. libdmtx's own bound is a wall-clock timeout, which a loaded machine reaches with fewer points
/// looked at.
public struct DataMatrixReader: Sendable {
    /// How many points of its scan grid libdmtx may look at in one image. Of 192 generated photos, the
    /// reads took up to 56,000 (most under 2,500); 25,000 lost 4 of 127 reads. 60,000 cost 11 ms on a
    /// 1600×1200 gradient and 440 ms on the same photo of noise (ARCHITECTURE §14).
    public var maximumLocations: Int

    /// The longest one look may take, against a runaway only: each point of the grid costs libdmtx what
    /// fitting a region there costs, about 7 µs on a gradient and 1.7 ms on a tester's damaged 1620×580
    /// JPEG of a Code 39 card, whose blocky edges everywhere made one look at 60,000 points take 100 s.
    /// The reads of 192 generated photos took at most 0.9 s, so a read cut short here is a loaded machine's
    /// five times slower than that.
    public var longestLook: Duration

    /// A reader.
    public init(maximumLocations: Int = 60_000, longestLook: Duration = .seconds(5)) {
        self.maximumLocations = maximumLocations
        self.longestLook = longestLook
    }

    /// The codewords whose meaning libdmtx 0.7 drops from the text it returns.
    static let unreadCodewords: Set<UInt8> = [232, 233, 234, 241]

    /// libdmtx's functions, bound on first use; the error says which library or function is missing.
    static let functions: Result<gymcard_dmtx_functions, LoadingError> = DynamicLibrary.bind(
        .dmtx, names: gymcard_dmtx_function_names(), as: gymcard_dmtx_functions.self)

    /// Whether libdmtx is installed.
    public static var isAvailable: Bool { loadingError == nil }

    /// Why its library cannot be bound, or `nil`.
    public static var loadingError: LoadingError? { functions.loadingError }

    /// The first Data Matrix symbol libdmtx reads in the image (a card has one; looking on for a second
    /// would spend the whole bound): empty when libdmtx is not installed. The look ends at `deadline` (the
    /// scan's safety limit) or after ``longestLook``, whichever comes first.
    public func decode(_ image: GrayImage, until deadline: ContinuousClock.Instant? = nil) -> [DecodedSymbol]
    {
        let clock = ContinuousClock()
        let end = Swift.min(deadline ?? .now + longestLook, .now + longestLook)
        guard let dmtx = try? Self.functions.get(), image.width > 1, image.height > 1,
            let width = Int32(exactly: image.width), let height = Int32(exactly: image.height)
        else { return [] }
        var pixels = image.pixels
        return pixels.withUnsafeMutableBufferPointer { buffer -> [DecodedSymbol] in
            var picture = dmtx.dmtxImageCreate(
                buffer.baseAddress, width, height, Int32(DmtxPack8bppK.rawValue))
            defer { if picture != nil { _ = dmtx.dmtxImageDestroy(&picture) } }
            var decoder = dmtx.dmtxDecodeCreate(picture, 1)
            defer { if decoder != nil { _ = dmtx.dmtxDecodeDestroy(&decoder) } }
            guard picture != nil, decoder != nil else { return [] }
            // A deadline already past: each call looks at one more point of the grid (libdmtx checks the
            // deadline after each point and goes on from there on the next call), so points are counted.
            var past = dmtx.dmtxTimeNow()
            for location in 0..<maximumLocations {
                if location & 63 == 0, clock.now >= end { break }
                guard let found = dmtx.dmtxRegionFindNext(decoder, &past) else { continue }
                var region: UnsafeMutablePointer<DmtxRegion>? = found
                defer { _ = dmtx.dmtxRegionDestroy(&region) }
                if let text = Self.text(of: found, in: decoder, dmtx) {
                    return [DecodedSymbol(symbology: .datamatrix, text: text, quality: 1)]
                }
            }
            return []
        }
    }

    /// The text of the symbol in `region`, or nil when it does not decode, or its data holds a codeword
    /// whose meaning libdmtx drops (``unreadCodewords``).
    private static func text(
        of region: UnsafeMutablePointer<DmtxRegion>, in decoder: UnsafeMutablePointer<DmtxDecode>?,
        _ dmtx: gymcard_dmtx_functions
    ) -> String? {
        var message = dmtx.dmtxDecodeMatrixRegion(decoder, region, DmtxUndefined)
        defer { if message != nil { _ = dmtx.dmtxMessageDestroy(&message) } }
        guard let decoded = message?.pointee else { return nil }
        let dataWords = Int(
            dmtx.dmtxGetSymbolAttribute(Int32(DmtxSymAttribSymbolDataWords.rawValue), region.pointee.sizeIdx))
        let codewords = UnsafeBufferPointer(
            start: decoded.code, count: Swift.min(dataWords, decoded.codeSize))
        // Codewords libdmtx 0.7 drops or misreads, so that its text is not the symbol's: 232 is FNC1 (a GS1
        // symbol's separators vanish: `10AB12<GS>17250101` read as `10AB1217250101`, found by a tester on an
        // inverted zint symbol), 233 Structured Append (one part of several), 234 Reader Programming, 241
        // an ECI (its bytes in another character set). Packed C40, Text or X12 values can equal them too;
        // such a symbol is refused with the rest.
        guard dataWords > 0, !codewords.contains(where: unreadCodewords.contains) else { return nil }
        let blocks = Int(
            dmtx.dmtxGetSymbolAttribute(
                Int32(DmtxSymAttribInterleavedBlocks.rawValue), region.pointee.sizeIdx))
        let all = Array(UnsafeBufferPointer(start: decoded.code, count: decoded.codeSize))
        guard DataMatrixCheck.isCodeword(all, dataWords: dataWords, blocks: blocks) else { return nil }
        let text = SymbolText.withoutECI(
            Array(UnsafeBufferPointer(start: decoded.output, count: Int(decoded.outputIdx))))
        return text.isEmpty ? nil : text
    }
}
