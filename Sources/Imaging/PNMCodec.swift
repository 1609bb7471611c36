/// PNM (PBM, PGM, PPM: `P1` to `P6`), what `scanimage` writes by default, and netpbm's PAM (`P7`, what
/// `pnmtopam` and `pamcut` write), parsed here in Swift.
///
/// libnetpbm is not used: it reads only from a `FILE*`, and on a malformed file it prints to stderr and
/// exits the process unless the caller longjmps out of its error handler, which Swift cannot do; the
/// format itself is a short text header and rows of samples.
public enum PNMCodec {
    /// Whether the bytes start like a PNM or PAM file: `P1`…`P7` and whitespace.
    public static func hasSignature(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[0] == UInt8(ascii: "P")
            && (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(bytes[1])
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
        if kind == 7 { return try decodePAM(bytes, minimumLongSide: minimumLongSide) }
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

    /// A PAM file: a header of `KEY value` lines up to `ENDHDR`, then binary rows of `DEPTH` samples a
    /// pixel (one byte each, two big-endian ones when MAXVAL is over 255). Only the tuple types that are
    /// pictures are read; transparent parts lie on white, as in the other formats.
    static func decodePAM(_ bytes: [UInt8], minimumLongSide: Int) throws(ImagingError) -> GrayImage {
        var fields: [String: Int] = [:]
        var tupleType = ""
        var offset = 3
        var ended = false
        // Header lines are short; one longer than this is no PAM header.
        while offset < bytes.count, offset < 4096 {
            let end = bytes[offset...].firstIndex(of: 0x0A) ?? bytes.count
            let line = String(decoding: bytes[offset..<end], as: UTF8.self)
            offset = end + 1
            if line.hasPrefix("#") { continue }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard let key = words.first else { continue }
            if key == "ENDHDR" {
                ended = true
                break
            }
            if key == "TUPLTYPE" {
                // Several TUPLTYPE lines are joined with a space, as netpbm does.
                let value = words.dropFirst().joined(separator: " ")
                tupleType = tupleType.isEmpty ? value : tupleType + " " + value
            } else if let number = words.dropFirst().first.flatMap({ Int($0) }) {
                fields[String(key)] = number
            }
        }
        guard ended, let width = fields["WIDTH"], let height = fields["HEIGHT"], let depth = fields["DEPTH"],
            let maximum = fields["MAXVAL"]
        else {
            throw .corrupt(format: "PAM", detail: "the header lacks WIDTH, HEIGHT, DEPTH, MAXVAL or ENDHDR")
        }
        guard (1...65535).contains(maximum) else {
            throw .corrupt(format: "PAM", detail: "the maximum sample value is not 1 to 65535")
        }
        // The picture tuple types; a file without one is read by its depth, as netpbm's own tools do.
        let isColour: Bool
        switch (tupleType, depth) {
        case ("GRAYSCALE", 1), ("BLACKANDWHITE", 1), ("", 1): isColour = false
        case ("GRAYSCALE_ALPHA", 2), ("BLACKANDWHITE_ALPHA", 2), ("", 2): isColour = false
        case ("RGB", 3), ("", 3), ("RGB_ALPHA", 4), ("", 4): isColour = true
        default: throw .unsupportedPAMTupleType(tupleType)
        }
        let hasAlpha = depth == 2 || depth == 4
        try ImageLimits.check(width: width, height: height, format: "PAM")
        let bytesPerSample = maximum > 255 ? 2 : 1
        let rowBytes = width * depth * bytesPerSample
        var reducer = GrayRowReducer(
            width: width, height: height,
            factor: GrayRowReducer.factor(width: width, height: height, minimumLongSide: minimumLongSide))
        var row = [UInt8](repeating: 255, count: width)
        for y in 0..<height {
            let start = offset + y * rowBytes
            guard start + rowBytes <= bytes.count else {
                throw .corrupt(format: "PAM", detail: "the file ends after \(y) of \(height) rows")
            }
            func sample(_ index: Int) -> Int {
                let position = start + index * bytesPerSample
                let value =
                    bytesPerSample == 1
                    ? Int(bytes[position]) : Int(bytes[position]) << 8 | Int(bytes[position + 1])
                return Swift.min(value, maximum)
            }
            for x in 0..<width {
                // In PAM, unlike PBM, 0 is black and MAXVAL white in every tuple type.
                let base = x * depth
                let luma =
                    isColour
                    ? (299 * sample(base) + 587 * sample(base + 1) + 114 * sample(base + 2) + 500) / 1000
                    : sample(base)
                let alpha = hasAlpha ? sample(base + depth - 1) : maximum
                let level = (luma * alpha + maximum * (maximum - alpha)) * 255 / (maximum * maximum)
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
