import Catima
import GymcardCore
import Storage

/// Why `export`, `import` or `share` stopped: one line for a person (what happened), the kind of failure,
/// whose raw value is the exit status (sysexits(3), as the CLI's `ExitStatus`), and what the command line
/// can do about it (``Remedy``), which the CLI words with its options (ARCHITECTURE §3).
///
/// Messages never hold the card's ID, a barcode's text or a password.
public struct CatimaProblem: Error, CustomStringConvertible {
    /// The kind of failure; the raw value is the exit status.
    public enum Kind: Int32, Sendable {
        /// The command line, or what it asks, cannot be done as given (64).
        case usage = 64
        /// The file or link is damaged or not a card gymcard stores (65).
        case badData = 65
        /// The file to import does not exist or cannot be read (66).
        case missingInput = 66
        /// libzip is missing (69).
        case unavailable = 69
        /// The export could not be written (74).
        case cannotWrite = 74
        /// The password does not open the zip (77, as a wrong passphrase for the card).
        case wrongPassword = 77
    }

    /// What an option of the command would change; the CLI says it after the message.
    public enum Remedy: Sendable, CaseIterable {
        /// A password from a file instead of the terminal (an encrypted zip, or an export's new password).
        case passwordFile
        /// Naming the card to take among several (the store's name).
        case chooseStore
        /// Naming the file's format (a name without .zip or .csv).
        case nameFormat
        /// A name that agrees with the format given.
        case matchFormat
        /// Replacing the file that is there.
        case replace
        /// Choosing among cards the store's name does not tell apart: only a terminal can.
        case chooseOnTerminal
    }

    /// The line for a person.
    public var message: String
    /// The kind of failure.
    public var kind: Kind
    /// What the command line can do about it, when something can.
    public var remedy: Remedy?

    /// What a question on the terminal answered; what it threw (the prompt ended with Ctrl-D) as a usage
    /// problem in its own words.
    static func asking<Answer>(_ question: () throws -> Answer) throws(CatimaProblem) -> Answer {
        do { return try question() } catch { throw CatimaProblem("\(error)", kind: .usage) }
    }

    /// A problem with its line, kind and remedy.
    public init(_ message: String, kind: Kind, remedy: Remedy? = nil) {
        self.message = message
        self.kind = kind
        self.remedy = remedy
    }

    /// The line.
    public var description: String { message }

    /// A Catima file or link that could not be read or written, named `name` (a file name, "the link").
    init(_ error: CatimaError, in name: String) {
        switch error {
        case .passwordNeeded:
            self.init("\(name) is encrypted", kind: .usage, remedy: .passwordFile)
        case .wrongPassword:
            self.init("the password does not open \(name); check it and try again", kind: .wrongPassword)
        case .emptyPassword: self.init("the password is empty; give one, or export without one", kind: .usage)
        case .libzipMissing: self.init("\(error)", kind: .unavailable)
        case .zipWriteFailed: self.init("\(error)", kind: .cannotWrite)
        case .noBarcodeType, .unsupportedBarcodeType, .invalidBarcodeText, .unsupportedEncoding:
            self.init("\(error); nothing was changed", kind: .badData)
        default: self.init("\(name): \(error); nothing was changed", kind: .badData)
        }
    }

    /// A file that could not be read or written.
    init(_ error: StorageError, reading: Bool) {
        if reading, case .notFound = error {
            self.init("\(error)", kind: .missingInput)
        } else {
            self.init(
                reading ? "cannot read \(error.description)" : "cannot write \(error.description)",
                kind: reading ? .missingInput : .cannotWrite)
        }
    }
}
