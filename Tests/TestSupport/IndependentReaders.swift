import Foundation

/// The project's independent readers: zxing-cpp from PyPI (3.x, in the test venv that scripts/test
/// makes) and Debian's zbarimg. What gymcard draws must read back with them, not only with itself.
public enum IndependentReaders {
    /// One symbol zxing-cpp found: its text, its format's name (`QRCode`, `Aztec`) and the bytes of
    /// zxing-cpp's `TextMode.HexECI`: the symbology identifier, then the ECI designator the symbol carries
    /// as `\000026` (ISO/IEC 15424's ECI protocol: then every data backslash is doubled), then the bytes.
    /// (`TextMode.ECI` is no use here: zxing-cpp 3.1.1 transcodes every symbol to UTF-8 and writes
    /// `\000026` whatever the symbol carries.)
    public struct Read: Sendable, Equatable, Decodable {
        /// The text, decoded through the symbol's ECI or zxing-cpp's guess.
        public var text: String
        /// zxing-cpp's name of the format.
        public var format: String
        /// `TextMode.HexECI`, as bytes.
        public var hexECI: [UInt8]

        /// The ECI designator the symbol carries, or `nil` for none.
        public var eci: Int? {
            guard hexECI.count >= 10, hexECI[3] == 0x5C else { return nil }
            return Int(String(decoding: hexECI[4..<10], as: UTF8.self))
        }

        /// The bytes the symbol carries, as they are in the symbol.
        public var bytes: [UInt8] {
            guard eci != nil else { return Array(hexECI.dropFirst(3)) }
            var bytes: [UInt8] = []
            var index = 10
            while index < hexECI.count {
                bytes.append(hexECI[index])
                index += hexECI[index] == 0x5C ? 2 : 1
            }
            return bytes
        }
    }

    /// Whether zxing-cpp (with Pillow) can be imported by the test Python.
    public static let hasZXingCpp = Interop.pythonImports("zxingcpp, PIL")

    /// Whether Debian's zbarimg is installed.
    public static var hasZbarimg: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/zbarimg") }

    static let zxingScript = """
        import json, sys, zxingcpp
        from PIL import Image
        out = {}
        for path in sys.argv[1:]:
            image = Image.open(path)
            plain = zxingcpp.read_barcodes(image)
            hexes = zxingcpp.read_barcodes(image, text_mode=zxingcpp.TextMode.HexECI)
            out[path] = [
                {"text": p.text, "format": str(p.format).split(".")[-1],
                 "hexECI": [int(byte, 16) for byte in h.text.split()]}
                for p, h in zip(plain, hexes)]
        json.dump(out, sys.stdout)
        """

    /// Every symbol zxing-cpp finds in each image file, read in one Python process.
    public static func zxingCpp(_ paths: [String]) async throws -> [String: [Read]] {
        let (status, output, error) = try await Interop.runPython(zxingScript, paths)
        guard status == 0 else {
            throw NSError(
                domain: "zxing-cpp", code: Int(status), userInfo: [NSLocalizedDescriptionKey: error])
        }
        return try JSONDecoder().decode([String: [Read]].self, from: output)
    }

    /// What zbarimg reads in one image (`--raw`, one text a line; its own default configuration), as UTF-8.
    public static func zbarimg(_ path: String, options: [String] = []) async throws -> [String] {
        let output = try await ChildProcess.run("/usr/bin/zbarimg", ["-q", "--raw"] + options + [path])
        return String(decoding: output.stdout, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .dropLast().map(String.init)
    }
}
