import Codabar
import Foundation
import TestSupport
import Testing

@testable import CardVault

/// Tests write with a tiny work factor through the internal hook; the CLI never goes below 17.
let tinyWorkFactor = 10
let passphrase = Array("correct horse battery staple".utf8)

@Suite("age v1 files")
struct AgeFileTests {
    @Test(
        "round trip, for empty, small and multi-chunk payloads",
        arguments: [0, 1, 700, 65536, 65537, 200_000])
    func roundTrip(size: Int) throws {
        let plaintext = (0..<size).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let file = try AgeFile.encrypt(plaintext, passphrase: passphrase, workFactor: tinyWorkFactor)
        #expect(try AgeFile.decrypt(file) { passphrase } == plaintext)
        let text = String(decoding: file.prefix(200), as: UTF8.self)
        #expect(text.hasPrefix("age-encryption.org/v1\n-> scrypt "))
    }

    @Test("a wrong passphrase and a damaged header are told apart")
    func wrongVersusDamaged() throws {
        let file = try AgeFile.encrypt(Array("{}".utf8), passphrase: passphrase, workFactor: tinyWorkFactor)
        #expect(throws: VaultError.wrongPassphrase) { try AgeFile.decrypt(file) { Array("wrong".utf8) } }
        var text = String(decoding: file, as: UTF8.self)
        text = text.replacingOccurrences(of: "-> scrypt", with: "-> scrypt2")
        #expect(throws: VaultError.self) { try AgeFile.decrypt(Array(text.utf8)) { passphrase } }
        let macLine = file.firstRange(of: Array("\n--- ".utf8))!.upperBound
        var badMAC = file
        badMAC[macLine] = badMAC[macLine] == 65 ? 66 : 65
        #expect(throws: VaultError.damaged("the header's MAC does not match")) {
            try AgeFile.decrypt(badMAC) { passphrase }
        }
    }

    @Test("an unknown version and a work factor of 30 are refused without asking for the passphrase")
    func refusedEarly() throws {
        let file = try AgeFile.encrypt(Array("{}".utf8), passphrase: passphrase, workFactor: tinyWorkFactor)
        let text = String(decoding: file, as: UTF8.self)
        let v2 = Array(
            text.replacingOccurrences(of: "age-encryption.org/v1", with: "age-encryption.org/v2").utf8)
        let factor30 = Array(text.replacingOccurrences(of: " \(tinyWorkFactor)\n", with: " 30\n").utf8)
        var asked = false
        #expect(throws: VaultError.unsupported("age version v2")) {
            try AgeFile.decrypt(v2) {
                asked = true; return passphrase
            }
        }
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: VaultError.workFactorTooHigh(30, maximum: 22)) {
            try AgeFile.decrypt(factor30) {
                asked = true; return passphrase
            }
        }
        #expect(clock.now - start < .milliseconds(100))
        #expect(!asked)
    }

    @Test("flipping any single bit of any byte is refused, never a wrong plaintext")
    func tamper() async throws {
        let record = CardRecord(symbol: try CodabarSymbol(normalizing: "905123456"))
        let plaintext = record.encoded()
        let file = try AgeFile.encrypt(plaintext, passphrase: passphrase, workFactor: tinyWorkFactor)
        // Hundreds of scrypt runs: off the concurrency pool (see OffThePool).
        let opened = await OffThePool.compute {
            file.indices.compactMap { index -> String? in
                var tampered = file
                tampered[index] ^= 0x01
                guard let opened = try? AgeFile.decrypt(tampered, passphrase: { passphrase }) else {
                    return nil
                }
                return
                    "byte \(index) flipped still opened (\(opened == plaintext ? "same" : "DIFFERENT") plaintext)"
            }
        }
        #expect(opened.isEmpty, "\(opened)")
    }

    @Test("base64 must be canonical and unpadded")
    func base64() {
        #expect(UnpaddedBase64.decode("AAAA") == [0, 0, 0])
        #expect(UnpaddedBase64.decode("AAA=") == nil)
        #expect(UnpaddedBase64.decode("AAB") == nil)  // non-zero unused bits
        #expect(UnpaddedBase64.decode("AAA") == [0, 0])
        #expect(UnpaddedBase64.decode("A A") == nil)
    }
}

@Suite("Interoperability with the real age tools")
struct AgeInteropTests {
    static let json: [UInt8] = {
        guard let symbol = try? CodabarSymbol(normalizing: "905123456") else { return [] }
        return CardRecord(symbol: symbol).encoded()
    }()

    @Test("Debian's age 1.1.1 decrypts gymcard's file, and gymcard reads what age -p wrote")
    func age() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/age"), await Interop.pythonHas("pexpect")
        else {
            Issue.record("age and python3-pexpect are needed: scripts/install-system-packages installs them")
            return
        }
        let directory = try TemporaryDirectory()
        let ours = directory.path + "/ours.age"
        try Data(try AgeFile.encrypt(Self.json, passphrase: passphrase, workFactor: tinyWorkFactor))
            .write(to: URL(fileURLWithPath: ours))
        let (status, output) = try await Interop.ageDecrypt(
            ours, passphrase: String(decoding: passphrase, as: UTF8.self))
        #expect(status == 0)
        #expect([UInt8](output).filter { $0 != 13 } == Self.json)

        let plain = directory.path + "/card.json"
        try Data(Self.json).write(to: URL(fileURLWithPath: plain))
        #expect(
            try await Interop.ageEncrypt(plain, to: directory.path + "/theirs.age", passphrase: "pass phrase")
                == 0)
        let theirs = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory.path + "/theirs.age")))
        // age wrote it with work factor 18: seconds of scrypt in a debug build, off the pool.
        let decrypted = try await OffThePool.compute {
            try AgeFile.decrypt(theirs) { Array("pass phrase".utf8) }
        }
        #expect(decrypted == Self.json)
    }

    @Test("rage (pyrage) decrypts gymcard's file, and gymcard reads what rage wrote")
    func rage() async throws {
        guard await Interop.pythonHas("pyrage") else {
            Issue.record("pyrage is needed: scripts/test installs it into .venv-test")
            return
        }
        let directory = try TemporaryDirectory()
        let ours = directory.path + "/ours.age"
        try Data(try AgeFile.encrypt(Self.json, passphrase: passphrase, workFactor: tinyWorkFactor))
            .write(to: URL(fileURLWithPath: ours))
        let decrypt =
            "import pyrage, sys; sys.stdout.buffer.write(pyrage.passphrase.decrypt(open(sys.argv[1], 'rb').read(), sys.argv[2]))"
        let (status, output, error) = try await Interop.runPython(
            decrypt, [ours, String(decoding: passphrase, as: UTF8.self)])
        #expect(status == 0, "\(error)")
        #expect([UInt8](output) == Self.json)

        let encrypt =
            "import pyrage, sys; sys.stdout.buffer.write(pyrage.passphrase.encrypt(sys.stdin.buffer.read(), sys.argv[1]))"
        let (encryptStatus, theirs, _) = try await Interop.runPython(
            encrypt, ["rage words"], input: Data(Self.json))
        #expect(encryptStatus == 0)
        let decrypted = try await OffThePool.compute {
            try AgeFile.decrypt([UInt8](theirs)) { Array("rage words".utf8) }
        }
        #expect(decrypted == Self.json)
    }
}
