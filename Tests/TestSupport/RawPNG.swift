import CZlib
import Imaging

/// Writes PNGs the way other programs do, byte by byte (any colour type, 8 or 16 bits, Adam7 interlaced
/// or not), streaming rows through zlib so that a 14000×14000 image needs no full-size buffer: for the
/// tests of gymcard's reduced PNG decoding.
public struct RawPNG: Sendable {
    /// PNG colour types.
    public enum ColourType: UInt8, Sendable {
        case gray = 0, rgb = 2, grayAlpha = 4, rgba = 6

        var channels: Int { [1, 0, 3, 0, 2, 0, 4][Int(rawValue)] }
    }

    /// Pixels per row.
    public var width: Int
    /// Rows.
    public var height: Int
    /// The colour type.
    public var colourType: ColourType
    /// 8 or 16.
    public var bitDepth: UInt8
    /// Whether rows are stored in Adam7 passes.
    public var interlaced: Bool

    /// Describes an image.
    public init(
        width: Int, height: Int, colourType: ColourType = .gray, bitDepth: UInt8 = 8, interlaced: Bool = false
    ) {
        self.width = width
        self.height = height
        self.colourType = colourType
        self.bitDepth = bitDepth
        self.interlaced = interlaced
    }

    /// Adam7's passes: first column and row, column and row steps.
    static let passes = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]

    /// The file, with each pixel's channel values (8-bit; a 16-bit image repeats each byte) from `pixel`.
    public func encode(_ pixel: (Int, Int) -> [UInt8]) -> [UInt8] {
        var stream = z_stream()
        deflateInit_(&stream, 6, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        var compressed: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        func feed(_ bytes: [UInt8], finish: Bool) {
            var input = bytes
            input.withUnsafeMutableBufferPointer { source in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                repeat {
                    buffer.withUnsafeMutableBufferPointer { out in
                        stream.next_out = out.baseAddress
                        stream.avail_out = UInt32(out.count)
                        deflate(&stream, finish ? Z_FINISH : Z_NO_FLUSH)
                        compressed += out.prefix(out.count - Int(stream.avail_out))
                    }
                } while stream.avail_out == 0 || (finish && stream.avail_in > 0)
            }
        }
        let bytesPerChannel = bitDepth == 16 ? 2 : 1
        func row(y: Int, xs: StrideTo<Int>) -> [UInt8] {
            var bytes: [UInt8] = [0]  // filter: none
            bytes.reserveCapacity(1 + width * colourType.channels * bytesPerChannel)
            for x in xs {
                for value in pixel(x, y) {
                    bytes.append(value)
                    if bytesPerChannel == 2 { bytes.append(value) }
                }
            }
            return bytes
        }
        if interlaced {
            for (x0, y0, dx, dy) in Self.passes where x0 < width && y0 < height {
                for y in stride(from: y0, to: height, by: dy) {
                    feed(row(y: y, xs: stride(from: x0, to: width, by: dx)), finish: false)
                }
            }
        } else {
            for y in 0..<height { feed(row(y: y, xs: stride(from: 0, to: width, by: 1)), finish: false) }
        }
        feed([], finish: true)
        deflateEnd(&stream)
        let header =
            bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [
                bitDepth, colourType.rawValue, 0, 0, interlaced ? 1 : 0,
            ]
        return PNGCodec.signature + chunk("IHDR", header) + chunk("IDAT", compressed) + chunk("IEND", [])
    }
}
