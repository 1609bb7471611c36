import Codabar
import Foundation
import TestSupport
import Testing

@testable import CardVault

/// The stored card without libcrypto (it is loaded on first use): a card with a passphrase is refused in
/// one line with exit 69, one without is shown as usual. libcrypto.so.3 is hidden from the binary by
/// mounting an empty file over it in a mount namespace of its own, as the scanner's tests hide libzbar.
@Suite("The stored card without libcrypto")
struct VaultLibcryptoMissingTests {
    static let library = "/usr/lib/x86_64-linux-gnu/libcrypto.so.3"
    static let message =
        "gymcard: a card with a passphrase needs libcrypto.so.3 (OpenSSL 3), but libcrypto.so.3 does not load "
        + "(libcrypto.so.3: file too short); install it (Debian: apt install libssl3)"

    /// `gymcard ARGUMENTS` in `home`'s files with libcrypto.so.3 hidden; fails the test where the mount
    /// namespace refuses the mount.
    static func runHidingLibcrypto(_ home: TemporaryDirectory, _ arguments: [String], input: Data? = nil)
        async throws -> ChildProcess.Output
    {
        _ = FileManager.default.createFile(atPath: home.path + "/empty", contents: Data())
        let script =
            "mount --bind \(home.path)/empty \(library) && exec \(GymcardProcess.executable.path) "
            + arguments.joined(separator: " ")
        let run = try await ChildProcess.run(
            "/usr/bin/unshare", ["-m", "sh", "-c", script],
            environment: GymcardProcess(home: home.path).environment, input: input)
        try #require(
            !run.stderrText.contains("Operation not permitted") && !run.stderrText.contains("mount:"),
            "libcrypto.so.3 could not be hidden in a mount namespace: \(run.stderrText)")
        return run
    }

    @Test(
        "show and set with a passphrase say libcrypto is needed (69) and write nothing; without one, show works",
        .enabled(
            if: Capability.mountNamespaces
                && Prerequisite.runs(FileManager.default.fileExists(atPath: library)),
            "mount namespaces (unshare -m) and libssl3 are needed"))
    func missing() async throws {
        let home = try TemporaryDirectory()
        let store = CardStore(directory: home.path + "/data/gymcard")
        try store.save(
            CardRecord(symbol: try CodabarSymbol(normalizing: "905123456")), passphrase: Array("pw".utf8),
            workFactor: 10)
        try Data("pw\n".utf8).write(to: URL(fileURLWithPath: home.path + "/pw"))
        let before = try Data(contentsOf: URL(fileURLWithPath: store.encryptedPath))

        let show = try await Self.runHidingLibcrypto(
            home, ["show", "--passphrase-file", home.path + "/pw", "--png", home.path + "/card.png"])
        #expect(show.status == 69)
        #expect(withoutLibraryFolders(show.stderrText) == Self.message + "\n")
        #expect(!FileManager.default.fileExists(atPath: home.path + "/card.png"))

        // Replacing the card opens it for its passphrase; a first card is encrypted.
        let replace = try await Self.runHidingLibcrypto(
            home, ["set", "--passphrase-file", home.path + "/pw"], input: Data("9051-23457\n".utf8))
        #expect(replace.status == 69)
        #expect(withoutLibraryFolders(replace.stderrText) == Self.message + "\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.encryptedPath)) == before)
        let empty = try TemporaryDirectory()
        try Data("pw\n".utf8).write(to: URL(fileURLWithPath: empty.path + "/pw"))
        let first = try await Self.runHidingLibcrypto(
            empty, ["set", "--passphrase-file", empty.path + "/pw"], input: Data("9051-23457\n".utf8))
        #expect(first.status == 69)
        #expect(withoutLibraryFolders(first.stderrText) == Self.message + "\n")
        #expect(!FileManager.default.fileExists(atPath: empty.path + "/data/gymcard/card.age"))

        let plain = try TemporaryDirectory()
        try CardStore(directory: plain.path + "/data/gymcard").save(
            CardRecord(symbol: try CodabarSymbol(normalizing: "905123456")), passphrase: nil)
        let shown = try await Self.runHidingLibcrypto(plain, ["show", "--png", plain.path + "/card.png"])
        #expect(shown.status == 0, "\(shown.stderrText)")
        #expect(try decodeFile(plain.path + "/card.png") == ["A905123456B"])
    }
}
