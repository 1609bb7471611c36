/// PNM (PBM, PGM, PPM: `P1` to `P6`), what `scanimage` writes by default, parsed here in Swift.
///
/// libnetpbm is not used: it reads only from a `FILE*`, and on a malformed file it prints to stderr and
/// exits the process unless the caller longjmps out of its error handler, which Swift cannot do; the
/// format itself is a short text header and rows of samples.
public enum PNMCodec {
    /// Whether the bytes start like a PNM file: `P1`…`P6` and whitespace.
    public static func hasSignature(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[0] == UInt8(ascii: "P")
            && (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(bytes[1])
            && isWhitespace(bytes[2])
    }

    /// Decodes the first image of the file to 8-bit grey (colour by its luma, samples scaled from the
    /// file's maximum value, 16-bit ones included). The header's dimensions are checked against
    /// ``ImageLimits`` before anything is allocated; an image larger than needed is averaged down by whole
    /// blocks as it is read, so that its longer side is still at least `minimumLongSide`.
    public static func decodeGray(_ bytes: [UInt8], minimumLongSide: Int = .max) throws(ImagingError)
        -> GrayImage
    {
        guard hasSignature(bytes) else { throw .unrecognizedFormat }
        let kind = Int(bytes[1] - UInt8(ascii: "0"))
        var reader = Reader(bytes: bytes, offset: 2)
        guard let width = reader.number(), let height = reader.number() else {
            throw .corrupt(format: "PNM", detail: "the header ends before the width and height")
        }
        let isBitmap = kind == 1 || kind == 4
        let maximum = isBitmap ? 1 : reader.number() ?? 0
        guard (1...65535).contains(maximum) else {
            throw .corrupt(format: "PNM", detail: "the maximum sample value is not 1 to 65535")
        }
        try ImageLimits.check(width: width, height: height, format: "PNM")
        let channels = kind == 3 || kind == 6 ? 3 : 1
        let isBinary = kind >= 4
        // One whitespace byte ends the header of a binary file; its samples follow.
        if isBinary { reader.offset += 1 }
        let bytesPerSample = maximum > 255 ? 2 : 1
        var reducer = GrayRowReducer(
            width: width, height: height,
            factor: GrayRowReducer.factor(width: width, height: height, minimumLongSide: minimumLongSide))
        var row = [UInt8](repeating: 255, count: width)
        var samples = [Int](repeating: 0, count: width * channels)
        // `scanimage`'s own kind (binary grey, 8 bits): the rows are the samples, handed over as they are.
        if kind == 5, maximum == 255 {
            guard reader.offset + width * height <= bytes.count else {
                let rows = (bytes.count - Swift.min(bytes.count, reader.offset)) / width
                throw .corrupt(format: "PNM", detail: "the file ends after \(rows) of \(height) rows")
            }
            bytes.withUnsafeBufferPointer { buffer in
                for y in 0..<height {
                    reducer.append(
                        UnsafeBufferPointer(rebasing: buffer[reader.offset + y * width..<buffer.count]))
                }
            }
            return reducer.image
        }
        for y in 0..<height {
            if isBinary {
                let rowBytes = kind == 4 ? (width + 7) / 8 : width * channels * bytesPerSample
                guard reader.offset + rowBytes <= bytes.count else {
                    throw .corrupt(format: "PNM", detail: "the file ends after \(y) of \(height) rows")
                }
                let start = reader.offset
                if kind == 4 {
                    for x in 0..<width { samples[x] = Int((bytes[start + (x >> 3)] >> (7 - (x & 7))) & 1) }
                } else if bytesPerSample == 1 {
                    for index in 0..<width * channels { samples[index] = Int(bytes[start + index]) }
                } else {
                    for index in 0..<width * channels {
                        samples[index] =
                            Int(bytes[start + 2 * index]) << 8 | Int(bytes[start + 2 * index + 1])
                    }
                }
                reader.offset += rowBytes
            } else {
                for index in 0..<width * channels {
                    // Plain PBM may run its digits together: each is one sample.
                    guard let sample = kind == 1 ? reader.bit() : reader.number() else {
                        throw .corrupt(format: "PNM", detail: "the file ends after \(y) of \(height) rows")
                    }
                    samples[index] = Swift.min(sample, maximum)
                }
            }
            for x in 0..<width {
                let level: Int
                if isBitmap {
                    level = samples[x] == 1 ? 0 : 255  // 1 is black in PBM
                } else if channels == 3 {
                    let (red, green, blue) = (samples[3 * x], samples[3 * x + 1], samples[3 * x + 2])
                    level = ((299 * red + 587 * green + 114 * blue) * 255 / maximum + 500) / 1000
                } else {
                    level = (samples[x] * 255 + maximum / 2) / maximum
                }
                row[x] = UInt8(Swift.min(255, level))
            }
            row.withUnsafeBufferPointer { reducer.append($0) }
        }
        return reducer.image
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    /// Numbers in the header and in plain (ASCII) files, with `#` comments to the end of a line.
    private struct Reader {
        let bytes: [UInt8]
        var offset: Int

        /// The next number: comments may stand anywhere whitespace may.
        mutating func number() -> Int? {
            skipWhitespaceAndComments()
            return digits()
        }

        /// One `0` or `1` of a plain PBM.
        mutating func bit() -> Int? {
            skipWhitespaceAndComments()
            guard offset < bytes.count,
                bytes[offset] == UInt8(ascii: "0") || bytes[offset] == UInt8(ascii: "1")
            else { return nil }
            defer { offset += 1 }
            return Int(bytes[offset] - UInt8(ascii: "0"))
        }

        private mutating func skipWhitespaceAndComments() {
            while offset < bytes.count {
                if bytes[offset] == UInt8(ascii: "#") {
                    while offset < bytes.count, bytes[offset] != 0x0A, bytes[offset] != 0x0D { offset += 1 }
                } else if PNMCodec.isWhitespace(bytes[offset]) {
                    offset += 1
                } else {
                    return
                }
            }
        }

        /// Decimal digits; nil when there are none or the number is absurdly long.
        private mutating func digits() -> Int? {
            var value = 0
            var count = 0
            while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) {
                guard count < 9 else { return nil }
                value = value * 10 + Int(bytes[offset] - UInt8(ascii: "0"))
                offset += 1
                count += 1
            }
            return count > 0 ? value : nil
        }
    }
}
