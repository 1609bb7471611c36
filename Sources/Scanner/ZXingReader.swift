import CZXing
import DynamicLoading
import FoundationEssentials
import Imaging
import Symbologies

/// zxing-cpp (Debian's 1.4.0) behind a Swift value: grey image in, decoded symbols out. The second engine:
/// the scanner asks it only where libzbar has read nothing it trusts. Nothing of zxing-cpp leaks above
/// this file.
///
/// Every card symbology is asked for (PDF417, Data Matrix and Aztec only it reads). zxing-cpp is asked to scan rows only (more of them with
/// `tryHarder`): its own turned and downscaled passes can abort the process in Debian's build (see
/// Sources/gymcard-zxing/ZXingRead.cpp). So the scanner hands it images turned by the angle its locator
/// found, the bars upright.
public struct ZXingReader: Sendable {
    /// Scan more rows (zxing-cpp's `tryHarder`).
    public var tryHarder: Bool

    /// Most symbols returned for one image.
    static let capacity = 8

    /// A reader.
    public init(tryHarder: Bool = true) { self.tryHarder = tryHarder }

    /// Whether zxing-cpp's helper process starts (it needs ``SystemLibrary/zxing``; the helper is installed
    /// with gymcard).
    public static var isAvailable: Bool { ZXingHelper.shared != nil }

    /// The zxing-cpp version the helper was built against, when it starts.
    public static var version: String? { ZXingHelper.shared?.version }

    /// Every card symbol zxing-cpp finds in the image. Empty when it is not installed, and when
    /// it failed (it only fails when out of memory).
    public func decode(_ image: GrayImage) -> [ZXingSymbol] {
        guard ZXingHelper.shared != nil, image.width > 0, image.height > 0 else { return [] }
        return
            (try? decode(luma: image.pixels, width: image.width, height: image.height, rowStride: image.width))
            ?? []
    }

    /// Every card symbol in 8-bit grey samples whose rows start `rowStride` bytes apart. The helper
    /// checks the description against the buffer before zxing-cpp reads a byte of it.
    public func decode(luma: [UInt8], width: Int, height: Int, rowStride: Int) throws(ZXingError)
        -> [ZXingSymbol]
    {
        guard let zxing = ZXingHelper.shared else { throw .unavailable }
        guard let width32 = Int32(exactly: width), let height32 = Int32(exactly: height),
            let stride32 = Int32(exactly: rowStride)
        else { throw .badImage(width: width, height: height, rowStride: rowStride, byteCount: luma.count) }
        var results = [gymcard_zxing_result](repeating: gymcard_zxing_result(), count: Self.capacity)
        let count = luma.withUnsafeBufferPointer { samples in
            results.withUnsafeMutableBufferPointer { output in
                zxing.read(
                    luma: samples, width: width32, height: height32, rowStride: stride32,
                    formats: Int32(GYMCARD_ZXING_ALL_FORMATS), tryHarder: tryHarder, into: output)
            }
        }
        switch count {
        case Int32(GYMCARD_ZXING_BAD_IMAGE):
            throw .badImage(width: width, height: height, rowStride: rowStride, byteCount: luma.count)
        case ..<0: throw .failed
        default: return results.prefix(Int(count)).compactMap(Self.symbol)
        }
    }

    private static func symbol(_ result: gymcard_zxing_result) -> ZXingSymbol? {
        guard let symbology = Symbology.allCases.first(where: { formatBit($0) == Int(result.format) }) else {
            return nil
        }
        var result = result
        let text = withUnsafeBytes(of: &result.text) { raw in
            String(
                decoding: raw.prefix(Int(max(0, min(result.byteCount, GYMCARD_ZXING_TEXT_CAPACITY - 1)))),
                as: UTF8.self)
        }
        let bytes = withUnsafeBytes(of: &result.raw) { raw in
            Array(raw.prefix(Int(max(0, min(result.rawCount, GYMCARD_ZXING_TEXT_CAPACITY - 1)))))
        }
        let decoded =
            result.isBytes == 0
            ? .success(text) : SymbolText.decode(bytes: bytes, hasECI: result.hasECI != 0, readerText: text)
        var problem: SymbolTextProblem?
        if case .failure(let failure) = decoded { problem = failure }
        let corners = withUnsafeBytes(of: result.corners) { bytes in
            let values = bytes.bindMemory(to: Int32.self)
            return (0..<4).map { ImagePoint(x: Int(values[2 * $0]), y: Int(values[2 * $0 + 1])) }
        }
        return ZXingSymbol(
            symbol: DecodedSymbol(
                symbology: symbology, text: (try? decoded.get()) ?? "", quality: Int(result.lineCount),
                lineEnds: corners, textProblem: problem,
                sequencePart: result.sequenceSize > 1 && result.sequenceIndex >= 0
                    ? SequencePart(number: Int(result.sequenceIndex) + 1, count: Int(result.sequenceSize))
                    : nil),
            corners: corners)
    }
}

extension ZXingReader {
    /// The helper's format bit for a symbology, the one place the two meet.
    static func formatBit(_ symbology: Symbology) -> Int {
        switch symbology {
        case .codabar: Int(GYMCARD_ZXING_CODABAR)
        case .code39: Int(GYMCARD_ZXING_CODE39)
        case .code93: Int(GYMCARD_ZXING_CODE93)
        case .code128: Int(GYMCARD_ZXING_CODE128)
        case .itf: Int(GYMCARD_ZXING_ITF)
        case .ean8: Int(GYMCARD_ZXING_EAN8)
        case .ean13: Int(GYMCARD_ZXING_EAN13)
        case .upca: Int(GYMCARD_ZXING_UPCA)
        case .upce: Int(GYMCARD_ZXING_UPCE)
        case .qr: Int(GYMCARD_ZXING_QR_CODE)
        case .pdf417: Int(GYMCARD_ZXING_PDF417)
        case .datamatrix: Int(GYMCARD_ZXING_DATA_MATRIX)
        case .aztec: Int(GYMCARD_ZXING_AZTEC)
        }
    }
}

/// A pixel position in an image.
public struct ImagePoint: Sendable, Hashable {
    /// Column.
    public var x: Int
    /// Row.
    public var y: Int

    /// A point.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

/// One symbol zxing-cpp found: the symbol (its quality is the number of scan lines that agreed, 0 for QR)
/// and where it lies.
public struct ZXingSymbol: Sendable, Hashable {
    /// What was read.
    public var symbol: DecodedSymbol
    /// Its corners: top-left, top-right, bottom-right, bottom-left (for a 1D symbol, the ends of the scan
    /// lines that read it, so top and bottom may coincide).
    public var corners: [ImagePoint]
}

/// Why zxing-cpp read nothing at all.
public enum ZXingError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The helper or libZXing is not installed.
    case unavailable
    /// The samples do not hold an image of that size and row stride; refused before reading.
    case badImage(width: Int, height: Int, rowStride: Int, byteCount: Int)
    /// zxing-cpp failed (out of memory).
    case failed

    /// One line for a person: what happened and what to do.
    public var description: String {
        switch self {
        case .unavailable:
            return
                "the second barcode reader (zxing-cpp) is not installed (Debian: "
                + "\(SystemLibrary.zxing.installCommand)); gymcard reads with libzbar alone"
        case .badImage(let width, let height, let rowStride, let byteCount):
            return
                "\(byteCount) bytes do not hold a \(width)×\(height) grey image with rows \(rowStride) bytes apart"
        case .failed:
            return "zxing-cpp failed to read the image (out of memory?)"
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}
