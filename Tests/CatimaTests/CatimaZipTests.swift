import Catima
import Foundation
import Storage
import Symbologies
import TestSupport
import Testing

@Suite("Catima zip through libzip")
struct CatimaZipTests {
    /// Cards as `export` makes them: symbology, text, label.
    static let cards: [(Symbology, String, String?)] = [
        (.codabar, "123456789", nil), (.code128, "GYM-0042", "Gold's, Gym"), (.qr, "Käse ☃", "Café\nline 2"),
    ]

    static func card(_ index: Int) throws -> CatimaCard {
        let (symbology, text, label) = cards[index]
        return CatimaCard(
            exporting: try BarcodeContent(symbology: symbology, normalizing: text), label: label)
    }

    @Test(
        "export then import gives the same card: zip and CSV, with and without a password",
        arguments: 0..<cards.count,
        [CatimaExport.Format.csv, .zip(password: nil), .zip(password: "correct horse ☃")])
    func roundTrip(index: Int, format: CatimaExport.Format) throws {
        let card = try Self.card(index)
        let bytes = try CatimaExport.bytes(for: card, format: format)
        let password: String? = if case .zip(let password) = format { password } else { nil }
        let contents = try CatimaExport.cards(in: bytes, password: password)
        #expect(contents.cards.count == 1)
        let read = try #require(contents.cards.first)
        #expect(read.store == card.store)
        #expect(read.cardID == card.cardID)
        #expect(try read.barcodeContent() == card.barcodeContent())
        #expect(read.headerColor == card.headerColor)
    }

    @Test("an encrypted zip without its password, or with a wrong one, is one neutral line")
    func passwords() throws {
        let bytes = try CatimaExport.bytes(for: try Self.card(0), format: .zip(password: "right"))
        #expect(throws: CatimaError.passwordNeeded) { try CatimaExport.cards(in: bytes, password: nil) }
        #expect(throws: CatimaError.wrongPassword) { try CatimaExport.cards(in: bytes, password: "wrong") }
        let card = try Self.card(0)
        #expect(throws: CatimaError.emptyPassword) {
            try CatimaExport.bytes(for: card, format: .zip(password: ""))
        }
        // The card's text is nowhere in the encrypted bytes.
        #expect(!String(decoding: bytes, as: UTF8.self).contains("123456789"))
    }

    @Test("damaged zips are one neutral line each")
    func damaged() throws {
        let bytes = try CatimaExport.bytes(for: try Self.card(0), format: .zip(password: nil))
        var flipped = bytes
        flipped[60] ^= 0xFF  // inside the deflated catima.csv (the local header is 30 + 10 bytes)
        let cut = Array(bytes.prefix(bytes.count - 30))
        for damaged in [flipped, cut] {
            let error = try #require(throws: CatimaError.self) {
                try CatimaExport.cards(in: damaged, password: nil)
            }
            #expect(!error.description.contains("\n"))
            #expect(!error.description.contains("123456789"))
            if case .damagedZip = error {} else { Issue.record("expected a damaged zip, got \(error)") }
        }
    }

    @Test(
        "a zip without catima.csv is not a Catima export",
        .enabled(if: Prerequisite.runs(Interop.pythonImports("zipfile")), "a Python with zipfile is needed"))
    func noCSV() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/other.zip"
        let (status, _, error) = try await Interop.runPython(
            "import zipfile, sys\nwith zipfile.ZipFile(sys.argv[1], 'w') as z: z.writestr('notes.txt', 'x')",
            [path])
        #expect(status == 0, "\(error)")
        #expect(throws: CatimaError.noCatimaCSV) {
            try CatimaExport.cards(
                in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), password: nil)
        }
    }

    static var hasPyzipper: Bool { Interop.pythonImports("pyzipper") }

    /// Lists the entries of a zip with pyzipper (an independent reader), decrypting with the password, and
    /// prints per entry: name, compression method, AES strength and AE version from the 0x9901 extra field
    /// (0 without), whether the CRC field is 0, then the bytes of catima.csv in hex.
    static let readWithPyzipper = """
        import pyzipper, struct, sys
        with pyzipper.AESZipFile(sys.argv[1]) as z:
            if len(sys.argv) > 2: z.setpassword(sys.argv[2].encode())
            for info in z.infolist():
                strength, method, version, extra = 0, info.compress_type, 0, info.extra
                while len(extra) >= 4:
                    tag, size = struct.unpack('<HH', extra[:4])
                    if tag == 0x9901:
                        version, strength = struct.unpack('<H', extra[4:6])[0], extra[8]
                        method = struct.unpack('<H', extra[9:11])[0]
                    extra = extra[4 + size:]
                print(info.filename, method, strength, version, info.CRC == 0)
            print(z.read('catima.csv').hex())
        """

    @Test(
        "pyzipper reads what gymcard writes: catima.csv alone, deflated, AES-256 with a password",
        .enabled(if: hasPyzipper), arguments: [nil, "pass word ☃"] as [String?])
    func independentReaderReadsOurs(password: String?) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/card.zip"
        let bytes = try CatimaExport.bytes(for: try Self.card(1), format: .zip(password: password))
        try CatimaExport.write(bytes, to: path)
        let (status, output, error) = try await Interop.runPython(
            Self.readWithPyzipper, [path] + (password.map { [$0] } ?? []))
        #expect(status == 0, "\(error)")
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        try #require(lines.count == 2)
        #expect(lines[0] == (password == nil ? "catima.csv 8 0 0 False" : "catima.csv 8 3 2 False"))
        let csv = stride(from: 0, to: lines[1].count, by: 2).compactMap { offset -> UInt8? in
            let start = lines[1].index(lines[1].startIndex, offsetBy: offset)
            return UInt8(lines[1][start..<lines[1].index(start, offsetBy: 2)], radix: 16)
        }
        let expected = CatimaCSV.export(try Self.card(1))
        #expect(csv == expected)
        // What came out of the zip is what Catima's importer accepts.
        let imported = try CatimaImporterModel.importCSV(csv)
        #expect(imported.cards.map(\.cardID) == ["GYM-0042"])
        try CatimaImporterModel.checkEntries(lines.dropLast().map { String($0.split(separator: " ")[0]) })
    }

    @Test(
        "gymcard reads zips written by Python's zipfile (plain) and pyzipper (AES-256, AES-128), also with data descriptors as zip4j streams them",
        .enabled(if: hasPyzipper), arguments: ["plain", "aes256", "aes128", "plain-stream", "aes256-stream"])
    func oursReadsIndependentWriter(kind: String) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/catima.zip"
        let csv = CatimaCSV.export(try Self.card(0))
        let script = """
            import pyzipper, zipfile, sys
            data = bytes.fromhex(sys.argv[3])
            kind = sys.argv[2]
            class Unseekable:
                # What zip4j's ZipOutputStream does, as Catima writes: sizes and CRC in data descriptors
                # after each entry (general-purpose flag bit 3), since the stream cannot seek back.
                def __init__(self, file): self.file = file
                def write(self, data): return self.file.write(data)
                def flush(self): pass
            with open(sys.argv[1], 'wb') as file:
                target = Unseekable(file) if kind.endswith('-stream') else file
                if kind.startswith('plain'):
                    with zipfile.ZipFile(target, 'w', compression=zipfile.ZIP_DEFLATED) as z:
                        z.writestr('catima.csv', data)
                        z.writestr('card_1_front.png', b'\\x89PNG')
                else:
                    bits = 128 if kind.startswith('aes128') else 256
                    with pyzipper.AESZipFile(target, 'w', compression=pyzipper.ZIP_DEFLATED, encryption=pyzipper.WZ_AES) as z:
                        z.setpassword(b'secret')
                        z.setencryption(pyzipper.WZ_AES, nbits=bits)
                        z.writestr('catima.csv', data)
            """
        let hex = csv.map { String(format: "%02x", $0) }.joined()
        let (status, _, error) = try await Interop.runPython(script, [path, kind, hex])
        #expect(status == 0, "\(error)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let contents = try CatimaExport.cards(in: bytes, password: kind.hasPrefix("plain") ? nil : "secret")
        #expect(contents.cards.map(\.cardID) == ["A123456789B"])
        if !kind.hasPrefix("plain") {
            #expect(throws: CatimaError.wrongPassword) {
                try CatimaExport.cards(in: bytes, password: "Secret")
            }
        }
    }

    @Test("writing goes through Storage's user-path writing; an existing file is reported first")
    func userPath() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/card.csv"
        #expect(try CatimaExport.existingFile(at: path) == false)
        let written = CatimaCSV.export(try Self.card(0))
        try CatimaExport.write(written, to: path)
        #expect(try CatimaExport.existingFile(at: path))
        #expect(try CatimaExport.existingFile(at: "/dev/null") == false)
        try CatimaExport.write([1, 2, 3], to: "/dev/null")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == written)
    }
}
