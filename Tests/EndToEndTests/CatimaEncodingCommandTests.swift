import Foundation
import Symbologies
import TestSupport
import Testing

@testable import CardVault

/// Issue 38's text encoding and Catima input cases through the built binary, in temporary XDG folders:
/// text beyond ASCII drawn so that the independent readers read it exactly, Catima's UTF-8 card kept
/// through import, show, export and share, and Catima's inputs as Catima writes them.
@Suite("gymcard: text beyond ASCII and Catima's inputs, end to end")
struct CatimaEncodingCommandTests {
    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Stores `content` in-process, unencrypted, as `set` would.
    static func seed(_ home: TemporaryDirectory, _ content: BarcodeContent, label: String? = nil) throws {
        try CardStore(directory: home.path + "/data/gymcard").save(
            CardRecord(content: content, label: label), passphrase: nil, workFactor: 10)
    }

    static func stored(_ home: TemporaryDirectory) throws -> CardRecord {
        try CardStore(directory: home.path + "/data/gymcard").load { [] }.record
    }

    static let catima =
        GymcardProcess.packageRoot.deletingLastPathComponent().path + "/shared/realworld/catima"

    static let cases: [(Symbology, String)] = [
        (.qr, "Äb"), (.qr, "Ã©"), (.qr, "Käseschnitte"), (.datamatrix, "ÄÖÜ data"), (.datamatrix, "€uro"),
        (.pdf417, "€uro"), (.aztec, "Käseschnitte"), (.pdf417, "健身 42"),
    ]

    @Test(
        "show --png of text beyond ASCII: zxing-cpp reads the exact text and ECI, zbarimg the QR codes' text",
        .enabled(if: Prerequisite.runs(IndependentReaders.hasZXingCpp && IndependentReaders.hasZbarimg)),
        arguments: 0..<cases.count)
    func showBeyondASCII(index: Int) async throws {
        let (symbology, text) = Self.cases[index]
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let png = home.path + "/card.png"
        let shown = try await gymcard.run(["show", "--id", text, "--symbology", symbology.name, "--png", png])
        #expect(shown.status == 0, "\(shown.stderr)")
        let read = try await IndependentReaders.zxingCpp([png])[png] ?? []
        let latin1 = text.unicodeScalars.allSatisfy { $0.value <= 0xFF }
        #expect(read.map(\.text) == [text], "zxing-cpp")
        #expect(read.map(\.eci) == [latin1 ? 3 : 26], "the ECI")
        if symbology == .qr { #expect(try await IndependentReaders.zbarimg(png) == [text], "zbarimg") }
        // And gymcard's own scan: the same text and symbology.
        let scanned = try await gymcard.run(["scan", png, "--json"])
        #expect(scanned.status == 0, "\(scanned.stderr)")
        let json = try JSONSerialization.jsonObject(with: scanned.stdout) as? [String: Any]
        #expect(json?["id"] as? String == text && json?["symbology"] as? String == symbology.name)
    }

    /// Each card of a Catima CSV with a barcode type, as Python's csv module reads the card table.
    static let pythonCards = """
        import csv, io, json, sys
        rows = list(csv.reader(io.StringIO(open(sys.argv[1], encoding="utf-8", newline="").read())))
        start = next(i for i, row in enumerate(rows) if "cardid" in row)
        cards = []
        for row in rows[start + 1:]:
            if not row or row == [""] or row[0] == "cardId": break
            cards.append(dict(zip(rows[start], row)))
        json.dump(cards, sys.stdout)
        """

    @Test(
        "every card of Catima's test exports: import, show, scan, export give back its text, encoding and colour",
        .enabled(
            if: Prerequisite.runs(
                FileManager.default.fileExists(atPath: catima + "/catima_v2.csv")
                    && IndependentReaders.hasZXingCpp)))
    func catimasCardsThroughTheBinary() async throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.catima).filter {
            $0.hasSuffix(".csv")
        }
        var checked = 0
        for file in files.sorted() {
            let path = Self.catima + "/" + file
            let (status, output, error) = try await Interop.runPython(Self.pythonCards, [path])
            #expect(status == 0, "\(error)")
            let originals = try JSONDecoder().decode([[String: String]].self, from: output)
            for original in originals where !(original["barcodetype"] ?? "").isEmpty {
                let store = original["store"] ?? ""
                let home = try TemporaryDirectory()
                let gymcard = GymcardProcess(home: home.path)
                let imported = try await gymcard.run(["import", path, "--store", store, "--no-passphrase"])
                #expect(imported.status == 0, "\(file) \(store): \(imported.stderr)")
                let png = home.path + "/card.png"
                #expect(try await gymcard.run(["show", "--png", png]).status == 0)
                let text = (original["barcodeid"] ?? "").isEmpty ? original["cardid"] : original["barcodeid"]
                let read = try await IndependentReaders.zxingCpp([png])[png] ?? []
                #expect(read.map(\.text) == [text ?? ""], "\(file) \(store): zxing-cpp")
                let scanned = try await gymcard.run(["scan", png, "--json"])
                let json = try JSONSerialization.jsonObject(with: scanned.stdout) as? [String: Any]
                #expect(json?["id"] as? String == text, "\(file) \(store): gymcard scan \(scanned.stderr)")
                let csv = home.path + "/export.csv"
                #expect(try await gymcard.run(["export", csv]).status == 0)
                let (_, back, _) = try await Interop.runPython(Self.pythonCards, [csv])
                let exported = try #require(
                    try JSONDecoder().decode([[String: String]].self, from: back).first)
                for column in [
                    "store", "cardid", "barcodeid", "barcodetype", "barcodeencoding", "headercolor",
                ] {
                    #expect(exported[column] == original[column] ?? "", "\(file) \(store): \(column)")
                }
                checked += 1
            }
        }
        #expect(checked >= 5)
    }

    @Test(
        "Catima's Käseschnitte: imported, shown with ECI 26, exported as UTF-8 and -5414233, shared with barcodeencoding",
        .enabled(
            if: Prerequisite.runs(
                FileManager.default.fileExists(atPath: catima + "/catima_v2.csv")
                    && IndependentReaders.hasZXingCpp)))
    func cheese() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let imported = try await gymcard.run(
            ["import", Self.catima + "/catima_v2.csv", "--store", "cheese", "--no-passphrase"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try Self.stored(home).encoding == .utf8)
        let png = home.path + "/cheese.png"
        let shown = try await gymcard.run(["show", "--png", png])
        #expect(shown.status == 0, "\(shown.stderr)")
        let read = try await IndependentReaders.zxingCpp([png])[png] ?? []
        #expect(read.map(\.text) == ["Käseschnitte"] && read.map(\.eci) == [26])
        let csv = home.path + "/cheese.csv"
        let exported = try await gymcard.run(["export", csv])
        #expect(exported.status == 0, "\(exported.stderr)")
        let text = try String(contentsOfFile: csv, encoding: .utf8)
        #expect(text.contains("\r\n1,cheese,,,,0,,Käseschnitte,,AZTEC,UTF-8,-5414233,0,0,0\r\n"), "\(text)")
        let shared = try await gymcard.run(["share", "--url"])
        #expect(shared.status == 0, "\(shared.stderr)")
        #expect(shared.stdoutText.contains("%26barcodeencoding%3DUTF-8%26headercolor%3D-5414233\n"))
    }

    @Test("share --url always carries barcodeencoding, as Catima's toUri writes it")
    func shareCarriesEncoding() async throws {
        for (symbology, text, written) in [
            (Symbology.codabar, "905123456", ""), (.qr, "中文 42", "UTF-8"), (.qr, "Äb", "ISO-8859-1"),
            (.qr, "GYM 42", ""),
        ] {
            let home = try TemporaryDirectory()
            try Self.seed(home, try BarcodeContent(symbology: symbology, normalizing: text))
            let shared = try await GymcardProcess(home: home.path).run(["share", "--url"])
            #expect(shared.status == 0, "\(shared.stderr)")
            #expect(
                shared.stdoutText.contains("%26barcodeencoding%3D\(written)%26"), "\(symbology.name) \(text)")
        }
    }

    static let link =
        "https://catima.app/share/#store%3DGym%26note%3D%26balance%3D0%26cardid%3DC1234D%26barcodetype%3DCODABAR"
        + "%26barcodeencoding%3DISO-8859-1%26headercolor%3D-9977996"

    @Test(
        "a link with a trailing slash, from standard input, from <(cat link.txt), and saved with a BOM and CRLF"
    )
    func linksAsCatimaWritesThem() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        let piped = try await gymcard.run(
            ["import", "--no-passphrase"], input: Data((Self.link + "\n").utf8))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try Self.stored(home).id == "C1234D")
        #expect(try Self.stored(home).catima?.headerColor == -9_977_996)

        // Process substitution: a pipe named /dev/fd/63, as export >(…) writes one.
        try Self.write(
            Self.link.replacingOccurrences(of: "C1234D", with: "D99C") + "\n", to: home.path + "/link.txt")
        let substituted = try await ChildProcess.run(
            "/bin/bash", ["-c", gymcard.shellCommand("import --no-passphrase <(cat \"$HOME/link.txt\")")],
            environment: gymcard.environment)
        #expect(substituted.status == 0, "\(substituted.stderrText)")
        #expect(try Self.stored(home).id == "D99C")

        // An editor's UTF-8 byte-order mark and CRLF.
        let withMark = Data(
            [0xEF, 0xBB, 0xBF]
                + Array((Self.link.replacingOccurrences(of: "C1234D", with: "B77A") + "\r\n").utf8))
        try withMark.write(to: URL(fileURLWithPath: home.path + "/link-bom.txt"))
        let marked = try await gymcard.run(["import", home.path + "/link-bom.txt", "--no-passphrase"])
        #expect(marked.status == 0, "\(marked.stderr)")
        #expect(try Self.stored(home).id == "B77A")
    }

    /// Cards Catima keeps without a barcode gymcard draws, and two it draws.
    static let mixed =
        "2\r\n\r\n_id\r\n\r\n_id,store,note,cardid,barcodetype\r\n1,Pharmacy,,dhshsvshs,\r\n"
        + "2,Museum,,X1,MAXICODE\r\n3,Gym,,C1234D,CODABAR\r\n4,Pool,,A77B,CODABAR\r\n\r\ncardId,groupId\r\n"

    @Test("the list and the menu offer only cards gymcard can draw; none drawable is one line, 65")
    func drawableOnly() async throws {
        let home = try TemporaryDirectory()
        let gymcard = GymcardProcess(home: home.path)
        try Self.write(Self.mixed, to: home.path + "/mixed.csv")
        let listed = try await gymcard.run(["import", home.path + "/mixed.csv", "--no-passphrase"])
        #expect(listed.status == 64)
        #expect(
            listed.stderrLines == [
                "2 cards with a barcode gymcard can draw:", "  1. Gym — Codabar, line 8",
                "  2. Pool — Codabar, line 9",
                "(2 other cards have no barcode gymcard can draw)",
                "gymcard: there are 2 cards (listed above); choose one with --store <name>",
            ])
        let undrawable = Self.mixed.replacingOccurrences(of: "C1234D,CODABAR", with: "C1234D,")
            .replacingOccurrences(
                of: "A77B,CODABAR", with: "A77B,RSS_14")
        try Self.write(undrawable, to: home.path + "/none.csv")
        let none = try await gymcard.run(["import", home.path + "/none.csv", "--no-passphrase"])
        #expect(none.status == 65)
        #expect(none.stderrLines.count == 1)
        #expect(none.stderr.hasPrefix("gymcard: none of the 4 cards has a barcode gymcard can draw"))
        #expect(!FileManager.default.fileExists(atPath: home.path + "/data/gymcard"))
    }

    @Test(
        "on a terminal a wrong number is asked again, and the card chosen is stored",
        .enabled(if: Prerequisite.runs(hasPexpect)))
    func menuAsksAgain() async throws {
        let home = try TemporaryDirectory()
        try Self.write(Self.mixed, to: home.path + "/mixed.csv")
        let script = """
            import os, pexpect, sys
            gymcard, home = sys.argv[1], sys.argv[2]
            env = dict(os.environ, HOME=home, XDG_DATA_HOME=home + "/data")
            child = pexpect.spawn(gymcard, ["import", "mixed.csv", "--no-passphrase"], env=env, timeout=60, cwd=home)
            child.expect("Which card"); child.sendline("7")
            child.expect("give a number from 1 to 2"); child.expect("Which card"); child.sendline("two")
            child.expect("give a number from 1 to 2"); child.expect("Which card"); child.sendline("2")
            child.expect(pexpect.EOF); child.close()
            print(child.exitstatus, [l for l in child.before.decode().splitlines() if l.startswith("Stored")])
            """
        let (status, output, error) = try await Interop.runPython(
            script, [GymcardProcess.executable.path, home.path])
        #expect(status == 0, "\(error)")
        #expect(String(decoding: output, as: UTF8.self) == "0 ['Stored A77B (Pool, Codabar).']\n")
        #expect(try Self.stored(home).id == "A77B")
    }

    static var hasPexpect: Bool { Interop.pythonImports("pexpect") }
}
