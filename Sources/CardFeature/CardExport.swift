import CardVault
import Catima
import Codabar
import Glibc
import GymcardCore
import Storage
import Symbologies
import TerminalText

/// `export`: the stored card as a Catima export, a zip (optionally encrypted) or a bare CSV, for Catima on
/// the phone.
public enum CardExport {
    /// The kind of file written.
    public enum Format: String, CaseIterable, Sendable {
        /// The zip Catima 2.0 and later write and read (`catima.csv` inside).
        case zip
        /// The bare `catima.csv`, which every Catima version imports.
        case csv
    }

    /// What was exported, for the line the command says.
    public struct Written: Sendable {
        /// The store name the card got in Catima.
        public var store: String
        /// The symbology's name for people (`Codabar`).
        public var symbology: String
        /// The format written.
        public var format: Format
        /// Whether the zip is encrypted.
        public var encrypted: Bool

        /// The line `export` says (terminal-safe): `Exported Hokie Passport (Codabar) to card.zip.`
        public func summary(to path: String) -> String {
            "Exported \(store) (\(symbology)) to \(path == "-" ? "standard output" : path)".terminalSafe
                + (encrypted ? ", encrypted with the password." : ".")
        }
    }

    /// The format of `path`: its extension (`.zip`, `.csv`), else `given`; `-` (standard output) is CSV
    /// unless given. A `given` format that contradicts the extension is refused (a CSV named `.zip` would
    /// not open in Catima), as is a directory (74, as any directory in the way of an output).
    public static func format(of path: String, given: Format?) throws(CatimaProblem) -> Format {
        if path.isEmpty { throw CatimaProblem("the file name is empty (- is standard output)", kind: .usage) }
        var status = stat()
        if path != "-", stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw CatimaProblem(
                "\(path) is a directory: name the file to write in it (e.g. \(path)/catima.zip)",
                kind: .cannotWrite)
        }
        let lowered = path.lowercased()
        let named: Format? = lowered.hasSuffix(".zip") ? .zip : lowered.hasSuffix(".csv") ? .csv : nil
        if let named, let given, named != given {
            throw CatimaProblem(
                "\(path) is named as a \(named.rawValue) file, not a \(given.rawValue) one", kind: .usage,
                remedy: .matchFormat)
        }
        if let format = named ?? given { return format }
        if path == "-" { return .csv }
        throw CatimaProblem(
            "cannot tell the format of \(path): name it .zip or .csv", kind: .usage, remedy: .nameFormat)
    }

    /// Fails when `path` names an existing regular file and `replacing` is false: an export never replaces a
    /// file silently. Devices, FIFOs and `/dev/fd/N` are written in place, so they pass.
    public static func checkDestination(_ path: String, replacing: Bool) throws(CatimaProblem) {
        guard path != "-", !replacing else { return }
        let exists: Bool
        do { exists = try CatimaExport.existingFile(at: path) } catch {
            throw CatimaProblem(error, reading: false)
        }
        if exists {
            throw CatimaProblem("\(path) already exists", kind: .usage, remedy: .replace)
        }
    }

    /// The card Catima gets for the stored one: its symbology, exact text and label, and what a card
    /// imported from Catima had beyond them (its encoding, header colour and card ID) as it was.
    public static func catimaCard(_ access: CardAccess) throws -> CatimaCard {
        let record = try access.unlock().record
        return catimaCard(content: try record.content(), record: record)
    }

    /// The card Catima gets for a stored record whose content is `content`.
    static func catimaCard(content: BarcodeContent, record: CardRecord) -> CatimaCard {
        var card = CatimaCard(exporting: content, label: record.label)
        if let kept = record.catima {
            card.barcodeEncoding = kept.encoding?.catimaName
            card.headerColor = kept.headerColor
            if let cardID = kept.cardID {
                card.barcodeID = card.cardID
                card.cardID = cardID
            }
        }
        return card
    }

    /// Makes the stored card's file for `path` (`-`: standard output) in `format`, encrypted when
    /// `password` is given (asked after the card is unlocked), and hands its bytes to `write`, which writes
    /// them to `path` (the CLI's, through Console). The destination is checked before anything is asked.
    public static func export(
        _ access: CardAccess, to path: String, format: Format, password: ZipPassword?, replacing: Bool,
        write: ([UInt8]) throws(StorageError) -> Void
    ) throws -> Written {
        try checkDestination(path, replacing: replacing)
        if password != nil, format == .csv {
            throw CatimaProblem(
                "a CSV file cannot be encrypted; export a .zip to give it a password", kind: .usage)
        }
        let card = try catimaCard(access)
        let zipPassword = try password?.new()
        let bytes: [UInt8]
        do {
            bytes = try CatimaExport.bytes(
                for: card, format: format == .zip ? .zip(password: zipPassword) : .csv)
        } catch { throw CatimaProblem(error, in: path) }
        // Checked again: a file may have appeared while the passphrase and password were typed.
        try checkDestination(path, replacing: replacing)
        do throws(StorageError) { try write(bytes) } catch { throw CatimaProblem(error, reading: false) }
        let symbology =
            if case .symbology(let symbology) = card.barcodeType { symbology.displayName } else { "" }
        return Written(
            store: card.store, symbology: symbology, format: format,
            encrypted: zipPassword != nil)
    }
}
