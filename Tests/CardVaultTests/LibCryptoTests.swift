import Testing

@testable import CardVault

/// libcrypto's primitives as the age file uses them, against the published test vectors of each
/// algorithm; the age files themselves are checked by AgeFileTests, AgeTestVectorTests and the interop
/// tests with age and rage.
@Suite("libcrypto's primitives against their RFCs' test vectors")
struct LibCryptoTests {
    /// The bytes written in hexadecimal (spaces ignored); a digit that is not one gives an empty array,
    /// which no expectation matches.
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8.filter { $0 != 32 })
        let pairs = stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0..<min($0 + 2, digits.count)], as: UTF8.self), radix: 16)
        }
        return pairs.contains(nil) || digits.count % 2 == 1 ? [] : pairs.compactMap { $0 }
    }

    /// RFC 8439 §2.8.2: the AEAD construction with associated data.
    static let key = [UInt8](0x80...0x9F)
    static let nonce = bytes("07000000 4041424344454647")
    static let associatedData = bytes("50515253c0c1c2c3c4c5c6c7")
    static let plaintext = Array(
        "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."
            .utf8)
    static let sealed = bytes(
        "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b"
            + "1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
            + "3ff4def08e4b7a9de576d26586cec64b6116" + "1ae10b594f09e26a7e902ecbd0600691")

    @Test("ChaCha20-Poly1305 seals and opens RFC 8439's §2.8.2 example")
    func chaChaPoly() throws {
        let crypto = try LibCrypto.loaded()
        let ours = try crypto.sealChaChaPoly(
            Self.plaintext[...], key: Self.key, nonce: Self.nonce, associatedData: Self.associatedData)
        #expect(ours == Self.sealed)
        #expect(
            crypto.openChaChaPoly(
                Self.sealed[...], key: Self.key, nonce: Self.nonce, associatedData: Self.associatedData)
                == Self.plaintext)
    }

    @Test("ChaCha20-Poly1305 refuses a changed tag, ciphertext, nonce or associated data, and a cut one")
    func chaChaPolyTampered() throws {
        let crypto = try LibCrypto.loaded()
        for index in [0, Self.sealed.count - 17, Self.sealed.count - 16, Self.sealed.count - 1] {
            var tampered = Self.sealed
            tampered[index] ^= 0x80
            #expect(
                crypto.openChaChaPoly(
                    tampered[...], key: Self.key, nonce: Self.nonce, associatedData: Self.associatedData)
                    == nil,
                "byte \(index)")
        }
        var otherNonce = Self.nonce
        otherNonce[11] ^= 1
        #expect(
            crypto.openChaChaPoly(
                Self.sealed[...], key: Self.key, nonce: otherNonce, associatedData: Self.associatedData)
                == nil)
        #expect(crypto.openChaChaPoly(Self.sealed[...], key: Self.key, nonce: Self.nonce) == nil)
        #expect(crypto.openChaChaPoly(Self.sealed.suffix(15), key: Self.key, nonce: Self.nonce) == nil)
    }

    @Test("ChaCha20-Poly1305 of nothing is a tag alone, which opens to nothing and refuses a change")
    func chaChaPolyEmpty() throws {
        let crypto = try LibCrypto.loaded()
        let tag = try crypto.sealChaChaPoly([], key: Self.key, nonce: Self.nonce)
        #expect(tag.count == 16)
        #expect(crypto.openChaChaPoly(tag[...], key: Self.key, nonce: Self.nonce) == [])
        var changed = tag
        changed[0] ^= 1
        #expect(crypto.openChaChaPoly(changed[...], key: Self.key, nonce: Self.nonce) == nil)
    }

    @Test("HMAC-SHA-256: RFC 4231 test cases 1 and 2")
    func hmac() throws {
        let crypto = try LibCrypto.loaded()
        #expect(
            try crypto.hmacSHA256(key: [UInt8](repeating: 0x0B, count: 20), message: Array("Hi There".utf8))
                == Self.bytes("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"))
        #expect(
            try crypto.hmacSHA256(
                key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
                == Self.bytes("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"))
    }

    struct HKDFCase: Sendable, CustomTestStringConvertible {
        var number: Int
        var inputKeyMaterial: [UInt8]
        var salt: [UInt8]
        var info: [UInt8]
        var output: String
        var testDescription: String { "RFC 5869 test case \(number)" }
    }

    static let hkdfCases = [
        HKDFCase(
            number: 1, inputKeyMaterial: [UInt8](repeating: 0x0B, count: 22), salt: [UInt8](0x00...0x0C),
            info: [UInt8](0xF0...0xF9),
            output: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
        HKDFCase(
            number: 2, inputKeyMaterial: [UInt8](0x00...0x4F), salt: [UInt8](0x60...0xAF),
            info: [UInt8](0xB0...0xFF),
            output:
                "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09"
                + "da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"),
        // An empty salt and info: age's header key has an empty salt.
        HKDFCase(
            number: 3, inputKeyMaterial: [UInt8](repeating: 0x0B, count: 22), salt: [], info: [],
            output: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
    ]

    @Test("HKDF-SHA-256", arguments: hkdfCases)
    func hkdf(_ test: HKDFCase) throws {
        let output = Self.bytes(test.output)
        #expect(
            try LibCrypto.loaded().hkdfSHA256(
                inputKeyMaterial: test.inputKeyMaterial, salt: test.salt, info: test.info,
                outputByteCount: output.count) == output)
    }

    @Test("scrypt: RFC 7914's vectors for N = 16 and N = 1024")
    func scrypt() throws {
        let crypto = try LibCrypto.loaded()
        #expect(
            try crypto.scrypt(
                password: [], salt: [], logN: 4, blockSize: 1, parallelism: 1, outputByteCount: 64)
                == Self.bytes(
                    "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442"
                        + "fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"))
        #expect(
            try crypto.scrypt(
                password: Array("password".utf8), salt: Array("NaCl".utf8), logN: 10, blockSize: 8,
                parallelism: 16, outputByteCount: 64)
                == Self.bytes(
                    "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
                        + "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"))
    }

    @Test("scrypt at N = 2^15, r = 8 needs just over 32 MiB, more than OpenSSL allows unless told")
    func scryptMemoryBound() throws {
        let key = try LibCrypto.loaded().scrypt(
            password: Array("password".utf8), salt: Array("NaCl".utf8), logN: 15, blockSize: 8,
            parallelism: 1,
            outputByteCount: 32)
        #expect(key.count == 32)
    }

    @Test("SHA-256 of \"abc\" (FIPS 180-2), which the age vectors' payload hashes use")
    func sha256() throws {
        #expect(
            try LibCrypto.loaded().sha256(Array("abc".utf8))
                == Self.bytes("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
    }

    @Test("the constant-time comparison tells equal from different, and different lengths")
    func comparison() throws {
        let crypto = try LibCrypto.loaded()
        #expect(crypto.equalInConstantTime([1, 2, 3], [1, 2, 3]))
        #expect(!crypto.equalInConstantTime([1, 2, 3], [1, 2, 4]))
        #expect(!crypto.equalInConstantTime([1, 2, 3], [1, 2]))
        #expect(crypto.equalInConstantTime([], []))
    }
}
