import CardVault
import Catima
import Codabar
import Console
import Foundation
import Symbologies
import Synchronization
import TestSupport
import Testing

@testable import CampusFeature
@testable import CardFeature
@testable import GymcardCore

/// `export`, `import` and `share` in-process, on real vault files and real export files in a temporary
/// folder, and real libzip.
@Suite struct CatimaTransferTests {
    /// A folder with a context over it, notices collected.
    struct Setup {
        let directory: TemporaryDirectory
        let context: Context
        let said = Said()

        init() throws {
            let directory = try TemporaryDirectory()
            self.directory = directory
            let said = said
            context = try Context(
                environment: ["XDG_DATA_HOME": directory.path + "/data", "HOME": directory.path], online: nil
            ) { line in said.lines.withLock { $0.append(line) } }
        }

        /// Card access with the vault passphrase from a file (when given) or none.
        func access(passphrase: String? = nil) throws -> CardAccess {
            guard let passphrase else {
                return CardAccess(
                    quick: context, passphrases: Passphrases(ask: { _ in nil }, canAsk: { false }))
            }
            let path = try file("vault-pass", passphrase + "\n")
            return CardAccess(
                quick: context,
                passphrases: Passphrases(script: .file(path), ask: { _ in nil }, canAsk: { false }))
        }

        func file(_ name: String, _ text: String) throws -> String {
            let path = directory.path + "/" + name
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }

        func bytes(_ path: String) throws -> [UInt8] {
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        }

        /// A password from a file, or none at all (no file, no terminal).
        func password(_ text: String?) throws -> ZipPassword {
            ZipPassword(
                file: try text.map { try file("zip-pass", $0 + "\n") }, ask: { _ in nil }, canAsk: { false })
        }

        /// The stored card's record, or nil.
        func stored(passphrase: String? = nil) throws -> CardRecord? {
            try access(passphrase: passphrase).store.protection() == nil
                ? nil : try access(passphrase: passphrase).unlock().record
        }
    }

    static let formats: [(CardExport.Format, String?)] = [
        (.csv, nil), (.zip, nil), (.zip, "correct horse ☃"),
    ]

    @Test(
        "export then import gives the same card: zip and CSV, with and without a password, labelled or not",
        arguments: [nil, "War Memorial, 2nd floor"], 0..<formats.count)
    func roundTrip(label: String?, formatIndex: Int) throws {
        let (format, password) = Self.formats[formatIndex]
        let setup = try Setup()
        let access = try setup.access(passphrase: "vault")
        let symbol = try CodabarSymbol(normalizing: "905123456")
        _ = try access.store(symbol, label: label, noPassphrase: false)
        let path = setup.directory.path + "/card." + format.rawValue
        let written = try CardExport.export(
            access, to: path, format: format, password: password == nil ? nil : try setup.password(password),
            replacing: false)
        #expect(written.store == (label ?? "Hokie Passport"))
        #expect(written.encrypted == (password != nil))
        try access.forget()

        let cards = try CardImport.cards(
            in: .file(path), password: try setup.password(password), say: { _ in })
        let card = try CardImport.choose(from: cards, store: nil, list: { _ in }, ask: { _ in nil })
        let stored = try CardImport.store(card, access: access, noPassphrase: false, say: { _ in })
        #expect(stored.displayText == "9051-23456")
        let record = try #require(try setup.stored(passphrase: "vault"))
        #expect(record.id == "A905123456B" && record.symbology == "codabar")
        #expect(record.label == label)
        #expect(setup.said.lines.withLock { $0.isEmpty })
    }

    /// Cards of every symbology Catima and gymcard share: the text as typed and as stored.
    static let symbologyCards: [(Symbology, String, String)] = [
        (.codabar, "C1234D", "C1234D"), (.code39, "gym-42", "GYM-42"), (.code93, "Gym 93", "Gym 93"),
        (.code128, "Gold's #42", "Gold's #42"), (.itf, "12345678", "12345678"),
        (.ean8, "9638507", "96385074"),
        (.ean13, "400638133393", "4006381333931"), (.upca, "03600029145", "036000291452"),
        (.upce, "0425261", "04252614"), (.qr, "https://gym.example/m/42", "https://gym.example/m/42"),
        (.pdf417, "MEMBER 42", "MEMBER 42"), (.datamatrix, "DM-42", "DM-42"), (.aztec, "Käse 42", "Käse 42"),
    ]

    @Test("every symbology goes to Catima under its name and comes back the same", arguments: 0..<13)
    func everySymbology(index: Int) throws {
        let (symbology, typed, text) = Self.symbologyCards[index]
        let setup = try Setup()
        let access = try setup.access()
        _ = try access.store(
            try BarcodeContent(symbology: symbology, normalizing: typed), label: nil, noPassphrase: true)
        let path = setup.directory.path + "/card.zip"
        let written = try CardExport.export(access, to: path, format: .zip, password: nil, replacing: false)
        #expect(written.symbology == symbology.displayName)
        let csv = try CatimaZip.catimaCSV(in: try setup.bytes(path), password: nil)
        #expect(String(decoding: csv, as: UTF8.self).contains(",\(symbology.catimaName),"))
        try access.forget()
        let cards = try CardImport.cards(in: .file(path), password: try setup.password(nil), say: { _ in })
        let stored = try CardImport.store(cards[0], access: access, noPassphrase: true, say: { _ in })
        #expect(stored.symbology == symbology.displayName)
        let record = try #require(try setup.stored())
        #expect(record.symbology == symbology.name && record.id == text && record.label == nil)
        #expect(setup.said.lines.withLock { $0.isEmpty })
    }

    @Test("an EAN-13 without its check digit gets it, and gymcard says so")
    func checkDigitSaid() throws {
        let setup = try Setup()
        let card = CatimaCard(store: "Shop", cardID: "400638133393", barcodeType: .symbology(.ean13))
        let said = Said()
        _ = try CardImport.store(card, access: try setup.access(), noPassphrase: true) { line in
            said.lines.withLock { $0.append(line) }
        }
        #expect(try setup.stored()?.id == "4006381333931")
        #expect(
            said.lines.withLock { $0 } == [
                "the EAN-13 value is stored as gymcard normalizes it: its check digit added"
            ])
    }

    @Test(
        "what the normalization did is said as it happened: letters upper-cased, a check digit added, an EAN-13 kept as UPC-A",
        arguments: [
            (Symbology.code39, "abc-12", "letters upper-cased"),
            (.ean13, "400638133393", "its check digit added"),
            (.ean13, "0036000291452", "an EAN-13 beginning with 0 kept as the UPC-A it is"),
        ])
    func normalizationSaid(_ symbology: Symbology, _ value: String, _ words: String) throws {
        let setup = try Setup()
        let card = CatimaCard(store: "Shop", cardID: value, barcodeType: .symbology(symbology))
        let said = Said()
        _ = try CardImport.store(card, access: try setup.access(), noPassphrase: true) { line in
            said.lines.withLock { $0.append(line) }
        }
        #expect(said.lines.withLock { $0 }.first?.hasSuffix(words) == true, "\(said.lines.withLock { $0 })")
    }

    @Test("an existing file is never replaced silently; a device is written in place")
    func existingFile() throws {
        let setup = try Setup()
        let access = try setup.access()
        _ = try access.store(try CodabarSymbol(normalizing: "905123456"), label: nil, noPassphrase: true)
        let path = try setup.file("mine.zip", "not yours")
        let problem = try #require(throws: CatimaProblem.self) {
            try CardExport.export(access, to: path, format: .zip, password: nil, replacing: false)
        }
        #expect(
            problem.kind == .usage && problem.message.contains("already exists") && problem.remedy == .replace
        )
        #expect(try setup.bytes(path) == Array("not yours".utf8))
        _ = try CardExport.export(access, to: path, format: .zip, password: nil, replacing: true)
        #expect(CatimaZip.looksLikeZip(try setup.bytes(path)))
        // A symbolic link to a file stays a link; /dev/null is written, not replaced.
        let link = setup.directory.path + "/link.csv"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        #expect(throws: CatimaProblem.self) {
            try CardExport.export(access, to: link, format: .csv, password: nil, replacing: false)
        }
        _ = try CardExport.export(access, to: "/dev/null", format: .zip, password: nil, replacing: false)
        #expect(
            try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
                == .typeCharacterSpecial)
    }

    @Test("a password for a CSV, an unknown extension, a wrong or missing zip password: one line each")
    func exportAndPasswordProblems() throws {
        let setup = try Setup()
        let access = try setup.access()
        _ = try access.store(try CodabarSymbol(normalizing: "905123456"), label: nil, noPassphrase: true)
        #expect(throws: CatimaProblem.self) { try CardExport.format(of: "card.txt", given: nil) }
        #expect(try CardExport.format(of: "-", given: nil) == .csv)
        #expect(try CardExport.format(of: "CARD.ZIP", given: nil) == .zip)
        let csv = setup.directory.path + "/c.csv"
        #expect(throws: CatimaProblem.self) {
            try CardExport.export(
                access, to: csv, format: .csv, password: try setup.password("x"), replacing: false)
        }
        #expect(!FileManager.default.fileExists(atPath: csv))

        let zip = setup.directory.path + "/c.zip"
        _ = try CardExport.export(
            access, to: zip, format: .zip, password: try setup.password("right"), replacing: false)
        let missing = try #require(throws: CatimaProblem.self) {
            try CardImport.cards(in: .file(zip), password: try setup.password(nil), say: { _ in })
        }
        #expect(missing.kind == .usage && missing.remedy == .passwordFile)
        #expect(!missing.message.contains("--"), "the option is the CLI's to name: \(missing.message)")
        let wrong = try #require(throws: CatimaProblem.self) {
            try CardImport.cards(in: .file(zip), password: try setup.password("wrong"), say: { _ in })
        }
        #expect(wrong.kind == .wrongPassword && !wrong.message.contains("wrong\u{20}"))
        // On a terminal: three tries, each retry said.
        let answers = Mutex(["no", "nope", "right"])
        let typed = ZipPassword(
            file: nil, ask: { _ in answers.withLock { Array($0.removeFirst().utf8) } }, canAsk: { true })
        let said = Said()
        let cards = try CardImport.cards(
            in: .file(zip), password: typed, say: { line in said.lines.withLock { $0.append(line) } })
        #expect(cards.count == 1)
        #expect(
            said.lines.withLock { $0 } == [
                "wrong password; try again (2 left)", "wrong password; try again (1 left)",
            ])
    }

    /// A version-2 file with three cards, as Catima writes it.
    static let threeCards =
        "2\r\n\r\n_id\r\n\r\n" + CatimaCSV.cardColumns.joined(separator: ",") + "\r\n"
        + "1,Gym,\"two\nlines\",,,0,,905123456,,CODABAR,,,0,0,0\r\n"
        + "2,Gym,,,,0,,C1234D,,CODABAR,,,0,0,0\r\n"
        + "3,Library,,,,0,,A77B,,CODABAR,,,0,0,0\r\n"
        + "\r\ncardId,groupId\r\n"

    @Test("several cards: --store picks, a terminal asks, else they are listed without their IDs")
    func choosing() throws {
        let cards = try CatimaCSV.read(Array(Self.threeCards.utf8)).cards
        #expect(
            try CardImport.choose(from: cards, store: " library ", list: { _ in }, ask: { _ in nil }).cardID
                == "A77B")
        let listed = Said()
        let problem = try #require(throws: CatimaProblem.self) {
            try CardImport.choose(
                from: cards, store: "Gym", list: { line in listed.lines.withLock { $0.append(line) } },
                ask: { _ in nil })
        }
        // --store was given and names both: only a terminal can choose.
        #expect(problem.kind == .usage && problem.remedy == .chooseOnTerminal)
        #expect(!problem.message.contains("--"), "the option is the CLI's to name: \(problem.message)")
        let lines = listed.lines.withLock { $0 }
        #expect(
            lines == [
                "2 cards with a barcode gymcard can draw:", "  1. Gym — Codabar, line 6",
                "  2. Gym — Codabar, line 8",
            ])
        #expect(!lines.joined().contains("905123456") && !lines.joined().contains("1234"))
        #expect(
            try CardImport.choose(from: cards, store: "Gym", list: { _ in }, ask: { _ in "2\n" }).cardID
                == "C1234D")
        // A wrong answer on a terminal is asked again, saying what to give; five wrong ones end it (64).
        let answers = Mutex(["4", "x", "3"])
        let asked = Said()
        let picked = try CardImport.choose(
            from: cards, store: nil, list: { line in asked.lines.withLock { $0.append(line) } },
            ask: { _ in answers.withLock { $0.removeFirst() } })
        #expect(picked.cardID == "A77B")
        #expect(asked.lines.withLock { $0 }.filter { $0.hasPrefix("give a number from 1 to 3") }.count == 2)
        let endless = try #require(throws: CatimaProblem.self) {
            try CardImport.choose(from: cards, store: nil, list: { _ in }, ask: { _ in "4" })
        }
        #expect(endless.kind == .usage && endless.message.contains("no card chosen"))
        let unknown = try #require(throws: CatimaProblem.self) {
            try CardImport.choose(from: cards, store: "Pool", list: { _ in }, ask: { _ in nil })
        }
        #expect(unknown.message.contains("Gym, Library"))
    }

    @Test(
        "a Codabar value without start/stop letters gets gymcard's, and says so; the note is said to be dropped"
    )
    func normalizationSaid() throws {
        let setup = try Setup()
        let card = try CatimaCSV.read(Array(Self.threeCards.utf8)).cards[0]
        let said = Said()
        _ = try CardImport.store(card, access: try setup.access(), noPassphrase: true) { line in
            said.lines.withLock { $0.append(line) }
        }
        #expect(try setup.stored()?.id == "A905123456B")
        #expect(try setup.stored()?.label == "Gym")
        let lines = said.lines.withLock { $0 }
        #expect(lines.count == 2)
        #expect(lines.first?.contains("no start/stop letters") == true)
        #expect(lines.last?.contains("note is not kept") == true)
        #expect(!lines.joined().contains("905123456"))
    }

    /// Damaged and refused files, each with the words its one line has.
    static let refused: [(name: String, text: String, words: String)] = [
        (
            "unknown type", "_id,store,note,cardid,barcodetype\r\n1,Gym,,123,FANCY_CODE\r\n",
            "neither Catima nor gymcard"
        ),
        ("missing cardid column", "_id,store,note\r\n1,Gym,\r\n", "no cardid column"),
        ("short record", "_id,store,note,cardid,barcodetype\r\n1,Gym,,123\r\n", "has 4 fields"),
        (
            "unclosed note", "_id,store,note,cardid,barcodetype\r\n1,Gym,\"never\nclosed,123,CODABAR\r\n",
            "never closed"
        ),
        ("no barcode type", "_id,store,note,cardid,barcodetype\r\n1,Gym,,123,\r\n", "no barcode type"),
        (
            "not drawn", "_id,store,note,cardid,barcodetype\r\n1,Gym,,123,MAXICODE\r\n",
            "MAXICODE, which gymcard cannot"
        ),
        ("bad EAN-13", "_id,store,note,cardid,barcodetype\r\n1,Gym,,4006381333932,EAN_13\r\n", "check digit"),
        ("bad Codabar", "_id,store,note,cardid,barcodetype\r\n1,Gym,,12x4,CODABAR\r\n", "'x' at position 3"),
        ("version 3", "3\r\n\r\n_id\r\n", "version 3"),
        ("empty", "", "no card"),
        ("damaged zip", "PK\u{3}\u{4}garbage", "damaged"),
    ]

    @Test(
        "damaged files, unknown types, missing columns: one line each, nothing changed",
        arguments: 0..<refused.count)
    func refusedFiles(index: Int) throws {
        let (name, text, words) = Self.refused[index]
        let setup = try Setup()
        let access = try setup.access()
        _ = try access.store(try CodabarSymbol(normalizing: "111111111"), label: "Mine", noPassphrase: true)
        let before = try setup.bytes(access.store.plainPath)
        let path = try setup.file("in.csv", text)
        let problem = try #require(throws: CatimaProblem.self, "\(name)") {
            let cards = try CardImport.cards(
                in: .file(path), password: try setup.password(nil), say: { _ in })
            let card = try CardImport.choose(from: cards, store: nil, list: { _ in }, ask: { _ in nil })
            _ = try CardImport.store(card, access: access, noPassphrase: true, say: { _ in })
        }
        #expect(problem.message.contains(words), "\(name): \(problem.message)")
        #expect(!problem.message.contains("\n") && problem.kind == .badData, "\(name)")
        // The file's path (a random temporary folder) may hold "123" by chance.
        let withoutPath = problem.message.replacingOccurrences(of: path, with: "")
        #expect(!withoutPath.contains("123") || words.contains("123"), "\(name): the ID is not quoted")
        #expect(try setup.bytes(access.store.plainPath) == before, "\(name)")
    }

    @Test("share: the link carries the stored card as Catima's format says, values encoded twice")
    func shareLink() throws {
        let setup = try Setup()
        let access = try setup.access()
        _ = try access.store(
            try CodabarSymbol(normalizing: "905123456"), label: "Gold's Gym & Spa", noPassphrase: true)
        let share = try CardShare(access)
        #expect(
            share.link.hasPrefix(
                "https://catima.app/share#store%3DGold%2527s%2BGym%2B%2526%2BSpa%26note%3D%26balance%3D0"
                    + "%26cardid%3DA905123456B%26barcodetype%3DCODABAR%26barcodeencoding%3D%26headercolor%3D"
            ))
        let back = try CatimaShareLink.card(from: share.link)
        #expect(
            back.cardID == "A905123456B" && back.store == "Gold's Gym & Spa"
                && back.barcodeType == .symbology(.codabar))
        // The link, read back through import, stores the same card.
        try access.forget()
        let cards = try CardImport.cards(
            in: .init(argument: share.link), password: try setup.password(nil), say: { _ in })
        _ = try CardImport.store(cards[0], access: access, noPassphrase: true, say: { _ in })
        #expect(try setup.stored()?.id == "A905123456B")
        #expect(try setup.stored()?.label == "Gold's Gym & Spa")
    }
}

extension CardExport {
    /// `export` writing its bytes as the CLI does (Console's `NamedOutput`: the path, or `-`).
    static func export(
        _ access: CardAccess, to path: String, format: Format, password: ZipPassword?, replacing: Bool
    ) throws -> Written {
        try export(
            access, to: path, format: format, password: password, replacing: replacing,
            write: NamedOutput.writer(to: path))
    }
}
