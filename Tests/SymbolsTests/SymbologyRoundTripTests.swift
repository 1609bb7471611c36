import CZXing
import Codabar
import Foundation
import Imaging
import Symbologies
import Symbols
import TestSupport
import Testing

import struct Scanner.ZBarReader
import struct Scanner.ZXingReader

/// Every symbology gymcard draws through libzint: the PNG it writes decodes with the real libzbar (zbarimg)
/// or zxing-cpp to the same text and symbology, and its modules are those the `zint` tool makes.
@Suite("Symbologies: drawn, read back by zbar or zxing-cpp, and module for module as zint")
struct SymbologyRoundTripTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var symbology: Symbology
        var input: String
        var testDescription: String { "\(symbology.name) \(input.prefix(24)) (\(input.count))" }
    }

    static let printableASCII = String((0x20...0x7E).map { Character(Unicode.Scalar(UInt8($0))) })

    /// Short, long and edge characters for each symbology. EAN-13 values do not start with 0: zbar reports
    /// such a symbol as the UPC-A it is.
    static let cases: [Case] = {
        let table: [(Symbology, [String])] = [
            (
                .code39,
                [
                    "A", "GYM-0042", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ -.$/+%",
                    String(repeating: "Z9", count: 30),
                ]
            ),
            (
                .code93,
                ["a", "Gym 42!", String(printableASCII.prefix(47)), String(printableASCII.dropFirst(47))]
            ),
            (.code128, ["1", "1234567890", "Gym#42~ {x}", "AB12cd34\\", String(printableASCII.prefix(60))]),
            (.itf, ["12", "00012345678905", "123456789012345678901234567890"]),
            (.ean8, ["9638507", "0000000", "9999999"]),
            (.ean13, ["590123412345", "4006381333931", "999999999999", "100000000000"]),
            (.upca, ["03600029145", "00000000000", "99999999999"]),
            (.upce, ["123456", "1654321", "000000", "0999999"]),
            (
                .qr,
                ["1", "https://gym.example/m?id=42&x=1", String(repeating: "GYM0042-", count: 40), "é中 ~"]
            ),
            (.pdf417, ["1", "Gym member 0042", String(repeating: "Gym 0042 ", count: 30)]),
            (.datamatrix, ["1", "Gym member 0042", String(repeating: "Gym 0042 ", count: 30)]),
            (.aztec, ["1", "Gym member 0042", String(repeating: "Gym 0042 ", count: 30)]),
        ]
        return table.flatMap { symbology, inputs in inputs.map { Case(symbology: symbology, input: $0) } }
    }()

    /// zint's own names for the symbologies (`zint -t`); the EAN/UPC `_CHK` types verify the check digit.
    static let zintNames: [Symbology: String] = [
        .code39: "CODE39", .code93: "CODE93", .code128: "CODE128", .itf: "C25INTER", .ean8: "EANX_CHK",
        .ean13: "EANX_CHK", .upca: "UPCA_CHK", .upce: "UPCE_CHK", .qr: "QRCODE", .pdf417: "PDF417",
        .datamatrix: "DATAMATRIX", .aztec: "AZTEC",
    ]

    /// Left, right, and above/below, in modules: ISO/IEC 16388 (Code 39), ANSI/AIM BC5 (Code 93), ISO/IEC
    /// 15417 (Code 128), ISO/IEC 16390 (ITF), GS1 General Specifications 5.2.3.4 (EAN/UPC), ISO/IEC 18004
    /// (QR), 15438 (PDF417), 16022 (Data Matrix), 24778 (Aztec: none).
    static let quietZones: [Symbology: [Int]] = [
        .code39: [10, 10, 0], .code93: [10, 10, 0], .code128: [10, 10, 0], .itf: [10, 10, 0],
        .ean8: [7, 7, 0], .ean13: [11, 7, 0], .upca: [9, 9, 0], .upce: [9, 7, 0], .qr: [4, 4, 4],
        .pdf417: [2, 2, 2], .datamatrix: [1, 1, 1], .aztec: [0, 0, 0],
    ]

    static let zxingBits: [Symbology: Int32] = [
        .pdf417: Int32(GYMCARD_ZXING_PDF417), .datamatrix: Int32(GYMCARD_ZXING_DATA_MATRIX),
        .aztec: Int32(GYMCARD_ZXING_AZTEC), .qr: Int32(GYMCARD_ZXING_QR_CODE),
        .upce: Int32(GYMCARD_ZXING_UPCE),
    ]

    @Test("the modules are zint's, and the PNG reads back as the same text and symbology", arguments: cases)
    func roundTrip(_ testCase: Case) async throws {
        let content = try BarcodeContent(symbology: testCase.symbology, normalizing: testCase.input)
        let matrix = try ModuleMatrix(encoding: content)
        let quiet = try #require(Self.quietZones[testCase.symbology])
        #expect(
            [matrix.quietZone.left, matrix.quietZone.right, matrix.quietZone.vertical] == quiet,
            "the quiet zone its standard asks for")

        // Module for module as `zint --dump` prints them (hex, most significant bit first, one line a row).
        let zintName = try #require(Self.zintNames[testCase.symbology])
        let dump = try await Self.run("/usr/bin/zint", ["-b", zintName, "--dump", "--data=" + content.text])
        #expect(dump.status == 0, "zint: \(dump.error)")
        let zintRows = dump.output.split(separator: "\n").map(Self.bits)
        #expect(zintRows.count == matrix.rows)
        for (index, zintRow) in zintRows.enumerated() where index < matrix.rows {
            let ours = Array(matrix.row(index))
            #expect(Array(zintRow.prefix(ours.count)) == ours, "row \(index)")
            #expect(zintRow.count - ours.count < 4 && !zintRow.dropFirst(ours.count).contains(true))
        }

        let style = try BarcodeStyle(narrowBarWidth: 2, barHeight: 30)
        let png = try PNGCodec.encode(MatrixRaster.image(of: matrix, style: style))
        if let zbarName = testCase.symbology.zbarName {
            let directory = try TemporaryDirectory()
            let path = directory.path + "/symbol.png"
            try Data(png).write(to: URL(fileURLWithPath: path))
            // zbar's defaults refuse Interleaved 2 of 5 under 6 digits, report UPC-A as EAN-13 and UPC-E as
            // the UPC-A (or EAN-13) it stands for: it names UPC-E only with EAN-13 off and UPC-E enabled
            // explicitly. It reads no UPC-E of number system 1 at all (zxing-cpp does, below).
            let options =
                testCase.symbology == .upce
                ? ["-q", "-Sean13.disable", "-Supce.enable"] : ["-q", "-Si25.min-length=2", "-Supca.enable"]
            if testCase.symbology != .upce || content.text.hasPrefix("0") {
                let read = try await Self.run("/usr/bin/zbarimg", options + [path])
                #expect(read.output == zbarName + ":" + content.text + "\n", "zbarimg: \(read.error)")
            }
        }
        if let bit = Self.zxingBits[testCase.symbology] {
            let image = try PNGCodec.decodeGray(png)
            let found = Self.zxingRead(image, formats: bit)
            #expect(found.map(\.text) == [content.text])
            #expect(found.map(\.format) == [bit])
        }
    }

    /// zint's `--scale=1` is 2 px a module and its bars are 50 modules tall, gymcard's default height;
    /// `--quietzones` draws the quiet zones gymcard always draws, and `--guarddescent=0` keeps EAN/UPC guard
    /// bars as long as the others, as gymcard draws them without text. zint writes a 1-bit palette PNG at
    /// zlib level 9; gymcard must not be larger for the same pixels.
    @Test("the PNG is no larger than zint's for the same symbol at the same scale", arguments: cases)
    func noLargerThanZint(_ testCase: Case) async throws {
        let content = try BarcodeContent(symbology: testCase.symbology, normalizing: testCase.input)
        let image = MatrixRaster.image(
            of: try ModuleMatrix(encoding: content), style: try BarcodeStyle(narrowBarWidth: 2))
        let ours = try PNGCodec.encode(image)
        let directory = try TemporaryDirectory()
        let path = directory.path + "/zint.png"
        let zintName = try #require(Self.zintNames[testCase.symbology])
        let made = try await Self.run(
            "/usr/bin/zint",
            [
                "-b", zintName, "--notext", "--quietzones", "--guarddescent=0", "--scale=1",
                "--data=" + content.text, "-o", path,
            ])
        #expect(made.status == 0, "zint: \(made.error)")
        let theirs = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        // The same pixels, or the sizes say nothing.
        #expect(try PNGCodec.decodeGray(theirs) == image.grayImage)
        #expect(ours.count <= theirs.count, "gymcard \(ours.count) bytes, zint \(theirs.count)")
    }

    @Test(
        "the SVG draws the PNG's dark pixels, with the text under a linear symbol",
        arguments: [Symbology.code128, .ean13, .pdf417, .qr], [false, true])
    func svgMatchesPNG(_ symbology: Symbology, showsText: Bool) throws {
        let content = try BarcodeContent(symbology: symbology, normalizing: "400638133393")
        let matrix = try ModuleMatrix(encoding: content)
        let style = try BarcodeStyle(narrowBarWidth: 3, barHeight: 20, showsText: showsText)
        let image = MatrixRaster.image(of: matrix, style: style, text: content.text)
        let svg = SVGDocument.matrix(matrix, style: style, text: content.text)
        // The text band is there only under a linear symbol with text asked for.
        if matrix.isLinear { #expect((image.height > 20 * 3) == showsText) }
        var painted = BitImage(width: image.width, height: image.height)
        for rectangle in svg.split(separator: "M").dropFirst() {
            let numbers = rectangle.split(whereSeparator: { !"0123456789".contains($0) }).compactMap {
                Int($0)
            }
            painted.fill(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        }
        #expect(svg.contains("width=\"\(image.width)\" height=\"\(image.height)\""))
        #expect(painted == image)
    }

    @Test(
        "the terminal drawing of a Code 128 card and a Data Matrix reads back",
        arguments: [
            Symbology.code128, .datamatrix, .ean13,
        ])
    func terminal(_ symbology: Symbology) throws {
        let content = try BarcodeContent(symbology: symbology, normalizing: "4006381333931")
        let matrix = try ModuleMatrix(encoding: content)
        let lines = try TerminalArt.matrix(
            matrix, palette: .blackOnWhite, availableColumns: 200, availableRows: 60)
        let decoded = Self.zxingRead(
            rasterize(lines, fullBlockWidth: 11), formats: Int32(GYMCARD_ZXING_ALL_FORMATS))
        #expect(decoded.map(\.text) == [content.text])
    }

    @Test("Codabar through the matrix is gymcard's own 3:1 encoder, and reads back", arguments: [1, 2, 3])
    func codabarMatrix(scale: Int) throws {
        let content = try BarcodeContent(symbology: .codabar, normalizing: "9051-23456")
        let matrix = try ModuleMatrix(encoding: content)
        let symbol = try CodabarSymbol(normalizing: "905123456")
        #expect(
            matrix.pixelRow(moduleWidth: scale) == CodabarLayout.standard.row(of: symbol, narrowWidth: scale))
        let image = MatrixRaster.image(of: matrix, style: try BarcodeStyle(narrowBarWidth: scale))
        #expect(image == CodabarRaster.image(of: symbol, style: try BarcodeStyle(narrowBarWidth: scale)))
        #expect(ZBarReader().decode(image.grayImage).map(\.text) == ["A905123456B"])
    }

    @Test("a text beyond a 2D symbol's capacity is refused by libzint with its reason")
    func beyondCapacity() throws {
        let content = try BarcodeContent(symbology: .pdf417, normalizing: String(repeating: "中", count: 500))
        #expect {
            try ModuleMatrix(encoding: content)
        } throws: { error in
            guard let error = error as? SymbolError, case .encodingFailed(.pdf417, let reason) = error else {
                return false
            }
            return reason.hasPrefix("libzint: ") && error.description.contains("PDF417")
        }
    }

    // MARK: Helpers

    /// A `zint --dump` line as modules.
    static func bits(_ line: Substring) -> [Bool] {
        line.filter { $0 != " " }.flatMap { digit -> [Bool] in
            let value = Int(String(digit), radix: 16) ?? 0
            return (0..<4).map { value & (8 >> $0) != 0 }
        }
    }

    /// What zxing-cpp reads in `image` among `formats` (the shim's bits), through Scanner's reader, which
    /// decodes a 2D symbol's bytes by its ECI.
    static func zxingRead(_ image: GrayImage, formats: Int32) -> [(text: String, format: Int32)] {
        ZXingReader().decode(image).compactMap { found in
            let bit = zxingBits[found.symbol.symbology] ?? allBits[found.symbol.symbology] ?? 0
            return bit & formats == 0 ? nil : (found.symbol.text, bit)
        }
    }

    /// The shim's bit of each symbology ``zxingBits`` leaves out.
    static let allBits: [Symbology: Int32] = [
        .codabar: Int32(GYMCARD_ZXING_CODABAR), .code39: Int32(GYMCARD_ZXING_CODE39),
        .code93: Int32(GYMCARD_ZXING_CODE93), .code128: Int32(GYMCARD_ZXING_CODE128),
        .itf: Int32(GYMCARD_ZXING_ITF), .ean8: Int32(GYMCARD_ZXING_EAN8), .ean13: Int32(GYMCARD_ZXING_EAN13),
        .upca: Int32(GYMCARD_ZXING_UPCA),
    ]

    static func run(_ executable: String, _ arguments: [String]) async throws -> (
        status: Int32, output: String, error: String
    ) {
        let output = try await ChildProcess.run(executable, arguments)
        return (output.status, output.stdoutText, output.stderrText)
    }
}
