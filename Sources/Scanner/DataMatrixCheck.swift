/// Whether a Data Matrix (ECC 200) symbol's codewords are a Reed–Solomon codeword: its error codewords are
/// those its data codewords give (ISO/IEC 16022 §5.7: GF(256) with the polynomial 301, generator roots α¹
/// to αⁿ, the blocks interleaved codeword by codeword). libdmtx 0.7.7 returns symbols that are not: a
/// tester's damaged JPEG of an 8×18 symbol holding `DM12345` read `BM04985`, its error codewords those of
/// neither text (pylibdmtx reads the same); its `fix` argument is ignored too. So its reads are checked
/// here, by a few lines of arithmetic, before they count (``DataMatrixReader``).
enum DataMatrixCheck {
    /// Whether `codewords` (data, then error codewords, as the symbol holds them) are consistent, for a
    /// symbol of `dataWords` data codewords in `blocks` interleaved blocks.
    static func isCodeword(_ codewords: [UInt8], dataWords: Int, blocks: Int) -> Bool {
        guard blocks > 0, dataWords > 0, codewords.count > dataWords,
            (codewords.count - dataWords).isMultiple(of: blocks)
        else { return false }
        let errorWords = (codewords.count - dataWords) / blocks
        for block in 0..<blocks {
            let data = stride(from: block, to: dataWords, by: blocks).map { codewords[$0] }
            let errors = stride(from: dataWords + block, to: codewords.count, by: blocks).map {
                codewords[$0]
            }
            if Self.errorCodewords(data, count: errorWords) != errors { return false }
        }
        return true
    }

    /// The error codewords of `data`: the remainder of its division by the generator polynomial.
    static func errorCodewords(_ data: [UInt8], count: Int) -> [UInt8] {
        var generator: [UInt8] = [1]
        for power in 1...count {
            var next = [UInt8](repeating: 0, count: generator.count + 1)
            for (index, coefficient) in generator.enumerated() {
                next[index] ^= coefficient
                next[index + 1] ^= multiply(coefficient, field.exponents[power])
            }
            generator = next
        }
        var remainder = [UInt8](repeating: 0, count: count)
        for value in data {
            let factor = value ^ remainder[0]
            remainder = Array(remainder.dropFirst()) + [0]
            for index in 0..<count { remainder[index] ^= multiply(factor, generator[index + 1]) }
        }
        return remainder
    }

    /// GF(256) with the polynomial x⁸ + x⁵ + x³ + x² + 1 (301): powers of α and their logarithms.
    private static let field: (exponents: [UInt8], logarithms: [Int]) = {
        var exponents = [UInt8](repeating: 0, count: 512)
        var logarithms = [Int](repeating: 0, count: 256)
        var value = 1
        for power in 0..<255 {
            exponents[power] = UInt8(value)
            logarithms[value] = power
            value <<= 1
            if value & 0x100 != 0 { value ^= 301 }
        }
        for power in 255..<512 { exponents[power] = exponents[power - 255] }
        return (exponents, logarithms)
    }()

    private static func multiply(_ one: UInt8, _ other: UInt8) -> UInt8 {
        one == 0 || other == 0
            ? 0 : field.exponents[field.logarithms[Int(one)] + field.logarithms[Int(other)]]
    }
}
