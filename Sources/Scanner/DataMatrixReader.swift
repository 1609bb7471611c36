import CDmtx
import DynamicLoading
import Imaging
import Symbologies

/// libdmtx (Debian's 0.7.7), a decoder for Data Matrix alone, behind a Swift value: grey image in, the
/// symbols it found out. The third engine: one stage after zxing-cpp's, where nothing was trusted yet. It
/// finds a symbol by its L-shaped finder along edges at any angle, where zxing-cpp 1.4 (rows only here,
/// see ``ZXingReader``) misses soft, turned and far ones: on 128 generated photos of a Data Matrix card it
/// read 8 that gymcard's other stages missed (ARCHITECTURE §14).
///
/// Its search is bounded by a timeout, not by work: it gives up on a photo with no Data Matrix after
/// ``timeoutMilliseconds``, while every read it made on the corpus took under 140 ms.
public struct DataMatrixReader: Sendable {
    /// How long libdmtx may look for a symbol in one image.
    public var timeoutMilliseconds: Int

    /// A reader.
    public init(timeoutMilliseconds: Int = 200) { self.timeoutMilliseconds = timeoutMilliseconds }

    /// The codewords whose meaning libdmtx 0.7 drops from the text it returns.
    static let unreadCodewords: Set<UInt8> = [232, 233, 234, 241]

    /// libdmtx's functions, bound on first use; the error says which library or function is missing.
    static let functions: Result<gymcard_dmtx_functions, LoadingError> = DynamicLibrary.bind(
        .dmtx, names: gymcard_dmtx_function_names(), as: gymcard_dmtx_functions.self)

    /// Whether libdmtx is installed (Debian's `libdmtx0b`).
    public static var isAvailable: Bool { (try? functions.get()) != nil }

    /// The first Data Matrix symbol libdmtx reads in the image (a card has one; looking on for a second
    /// would spend the whole timeout): empty when libdmtx is not installed. A symbol whose data holds an
    /// ECI, FNC1, Structured Append or Reader Programming is left out (``unreadCodewords``): libdmtx 0.7
    /// returns its text without them.
    public func decode(_ image: GrayImage) -> [DecodedSymbol] {
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
            var timeout = dmtx.dmtxTimeAdd(dmtx.dmtxTimeNow(), timeoutMilliseconds)
            var symbols: [DecodedSymbol] = []
            while symbols.isEmpty, let found = dmtx.dmtxRegionFindNext(decoder, &timeout) {
                var region: UnsafeMutablePointer<DmtxRegion>? = found
                defer { _ = dmtx.dmtxRegionDestroy(&region) }
                var message = dmtx.dmtxDecodeMatrixRegion(decoder, found, DmtxUndefined)
                defer { if message != nil { _ = dmtx.dmtxMessageDestroy(&message) } }
                guard let decoded = message?.pointee else { continue }
                let dataWords = Int(
                    dmtx.dmtxGetSymbolAttribute(
                        Int32(DmtxSymAttribSymbolDataWords.rawValue), found.pointee.sizeIdx))
                let codewords = UnsafeBufferPointer(
                    start: decoded.code, count: Swift.min(dataWords, decoded.codeSize))
                // Codewords libdmtx 0.7 drops or misreads, so that its text is not the symbol's: 232 is
                // FNC1 (a GS1 symbol's separators vanish: `10AB12<GS>17250101` read as `10AB1217250101`,
                // found by a tester on an inverted zint symbol), 233 Structured Append (one part of
                // several), 234 Reader Programming, 241 an ECI (its bytes in another character set). Packed
                // C40, Text or X12 values can equal them too; such a symbol is refused with the rest.
                guard dataWords > 0, !codewords.contains(where: Self.unreadCodewords.contains) else {
                    continue
                }
                let bytes = Array(
                    UnsafeBufferPointer(start: decoded.output, count: Int(decoded.outputIdx)))
                let text = SymbolText.withoutECI(bytes)
                guard !text.isEmpty else { continue }
                symbols.append(DecodedSymbol(symbology: .datamatrix, text: text, quality: 1))
            }
            return symbols
        }
    }
}
