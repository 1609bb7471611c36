import Foundation
import TestSupport
import Testing

@testable import CardVault

/// The age project's own test vectors (C2SP CCTV) against the vault reader, through the card store as
/// `show` reads a card: every scrypt vector that must decrypt gives its payload, every failure is
/// refused with the right class, nothing crashes. Skipped when `../shared/realworld/age-cctv` is not beside
/// the package (and failing then in CI).
@Suite("age's own test vectors (C2SP CCTV)")
struct AgeTestVectorTests {
    /// How the vault reader must answer a vector.
    enum Outcome: Equatable {
        case decrypts
        case wrongPassphrase
        case damaged
        case unsupported
        case workFactorTooHigh
    }

    static let vectors: Result<[AgeTestVector], any Error> = Result { try AgeTestVector.all() }

    static var present: Bool { AgeTestVector.directory != nil }

    /// What the vector's own `expect` line means for a reader that knows only passphrases (scrypt):
    /// the answers it accepts.
    static func expected(_ vector: AgeTestVector) -> Set<Outcome> {
        let isPassphraseFile = !vector.passphrases.isEmpty
        switch vector.expect {
        case "success":
            guard isPassphraseFile else {
                // Addressed to keys; the 16 MiB stream vectors are larger than any card.
                return vector.file.count > 1 << 20 ? [.damaged] : [.unsupported]
            }
            return [.decrypts]
        case "no match":
            // "-> Scrypt" is not an scrypt stanza: to a passphrase reader the file is for someone else.
            return isPassphraseFile && vector.name != "scrypt_uppercase" ? [.wrongPassphrase] : [.unsupported]
        case "armor failure": return [.damaged]
        default:
            if vector.name == "scrypt_work_factor_23" { return [.workFactorTooHigh] }
            if vector.name == "version_unsupported" { return [.unsupported] }
            if isPassphraseFile
                || ["empty", "armor_empty", "header_crlf", "armor_header_crlf"].contains(vector.name)
            {
                return [.damaged]
            }
            // A damaged file addressed to keys: both are true, and which is found first is a detail.
            return [.damaged, .unsupported]
        }
    }

    @Test(
        "143 vectors: the folder is there and complete",
        .enabled(if: Prerequisite.runs(present), "../shared/realworld/age-cctv is not beside the package"))
    func complete() throws {
        let vectors = try Self.vectors.get()
        #expect(vectors.count == 143)
        #expect(vectors.filter { !$0.passphrases.isEmpty }.count == 26)
    }

    /// One test for all of them, not one per vector: 143 small tasks at once would queue ahead of the
    /// in-process test servers of other suites on a 2-core machine. The scrypt work runs off the pool
    /// (``OffThePool``); a problem names its vector.
    @Test(
        "each vector is decrypted or refused as its class says; nothing crashes",
        .enabled(if: Prerequisite.runs(present), "../shared/realworld/age-cctv is not beside the package"))
    func everyVector() async throws {
        let vectors = try Self.vectors.get()
        try #require(!vectors.isEmpty, "no vectors in \(AgeTestVector.directory?.path ?? "age-cctv")")
        let problems = try await OffThePool.compute {
            try vectors.flatMap { try Self.problems(with: $0) }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// What is wrong with how the card store answers `vector`; empty when it answers as it must.
    static func problems(with vector: AgeTestVector) throws -> [String] {
        let directory = try TemporaryDirectory()
        let store = CardStore(directory: directory.path)
        try Data(vector.file).write(to: URL(fileURLWithPath: store.encryptedPath))
        let passphrase = Array((vector.passphrases.first ?? "password").utf8)
        var asked = 0
        let outcome: Outcome
        var payload: [UInt8] = []
        do {
            payload = try store.readDecrypted {
                asked += 1
                return passphrase
            }
            outcome = .decrypts
        } catch let error as VaultError {
            switch error {
            case .wrongPassphrase: outcome = .wrongPassphrase
            case .damaged: outcome = .damaged
            case .unsupported: outcome = .unsupported
            case .workFactorTooHigh: outcome = .workFactorTooHigh
            default: return ["\(vector.name): unexpected \(error)"]
            }
        }
        var problems: [String] = []
        if !expected(vector).contains(outcome) {
            problems.append("\(vector.name) (\(vector.expect)): \(outcome)")
        }
        if outcome == .decrypts {
            let hash = try LibCrypto.loaded().sha256(payload).map { String(format: "%02x", $0) }.joined()
            if hash != vector.payloadHash { problems.append("\(vector.name): payload hash \(hash)") }
        }
        // A passphrase is asked for only when the header is an scrypt file gymcard can open.
        if ![.decrypts, .wrongPassphrase].contains(outcome) && !vector.name.hasPrefix("scrypt_bad_tag")
            && asked > 1
        {
            problems.append("\(vector.name): the passphrase was asked for \(asked) times")
        }
        return problems
    }
}
