import CLibCrypto
import DynamicLoading

/// libcrypto (OpenSSL 3.0), loaded on first use with `dlopen` instead of linked: only a card with a
/// passphrase needs it, and linked it would be mapped by every gymcard process. It gives the age file its
/// primitives: scrypt, HMAC-SHA-256 (and HKDF on top of it, below), ChaCha20-Poly1305. The constants come
/// from the CLibCrypto system-library target (openssl/evp.h), the functions from its table there.
struct LibCrypto: Sendable {
    /// libcrypto's functions.
    let c: gymcard_libcrypto_functions

    /// libcrypto's functions, bound on first use; the error says which library or function is missing.
    static let functions = DynamicLibrary.bind(
        .libcrypto, names: gymcard_libcrypto_function_names(), as: gymcard_libcrypto_functions.self)

    /// The loaded library.
    ///
    /// - Throws: ``VaultError/libcryptoMissing(_:)`` when libcrypto.so.3 cannot be bound.
    static func loaded() throws(VaultError) -> LibCrypto {
        LibCrypto(c: try functions.mapError(VaultError.libcryptoMissing).get())
    }

    // MARK: - ChaCha20-Poly1305 (RFC 8439): 32-byte key, 12-byte nonce, 16-byte tag

    /// The ciphertext of `plaintext` followed by its tag; age uses no associated data.
    ///
    /// - Throws: ``VaultError/storage(_:)`` when OpenSSL fails (out of memory).
    func sealChaChaPoly(
        _ plaintext: ArraySlice<UInt8>, key: [UInt8], nonce: [UInt8], associatedData: [UInt8] = []
    ) throws(VaultError) -> [UInt8] {
        let plaintext = Array(plaintext)
        var output = [UInt8](repeating: 0, count: plaintext.count + 16)
        let sealed = withCipher(
            key: key, nonce: nonce, associatedData: associatedData, encrypting: true
        ) { context in
            output.withUnsafeMutableBufferPointer { output in
                guard let start = output.baseAddress,
                    update(context, encrypting: true, plaintext, into: start)
                else { return false }
                var finalLength: Int32 = 0
                return c.EVP_EncryptFinal_ex(context, start, &finalLength) == 1 && finalLength == 0
                    && c.EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, 16, start + plaintext.count) == 1
            }
        }
        guard sealed else { throw .storage("could not encrypt (libcrypto failed)") }
        return output
    }

    /// The plaintext of `sealed` (ciphertext then tag), or `nil` when it does not authenticate.
    func openChaChaPoly(
        _ sealed: ArraySlice<UInt8>, key: [UInt8], nonce: [UInt8], associatedData: [UInt8] = []
    ) -> [UInt8]? {
        guard sealed.count >= 16 else { return nil }
        let ciphertext = Array(sealed.dropLast(16))
        var tag = Array(sealed.suffix(16))
        // One byte more than the plaintext, so that the buffer has an address even when it is empty.
        var output = [UInt8](repeating: 0, count: ciphertext.count + 1)
        let opened = withCipher(
            key: key, nonce: nonce, associatedData: associatedData, encrypting: false
        ) { context in
            output.withUnsafeMutableBufferPointer { output in
                guard let start = output.baseAddress,
                    update(context, encrypting: false, ciphertext, into: start),
                    c.EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, 16, &tag) == 1
                else { return false }
                var finalLength: Int32 = 0
                // Fails when the tag does not match.
                return c.EVP_DecryptFinal_ex(context, start, &finalLength) == 1 && finalLength == 0
            }
        }
        return opened ? Array(output.dropLast()) : nil
    }

    /// `body` with a ChaCha20-Poly1305 context set up by `initialize` (encrypting or decrypting) with
    /// `key` and `nonce`, and given `associatedData`; false when OpenSSL fails or `body` returns false.
    private func withCipher(
        key: [UInt8], nonce: [UInt8], associatedData: [UInt8], encrypting: Bool,
        _ body: (OpaquePointer) -> Bool
    ) -> Bool {
        precondition(
            key.count == 32 && nonce.count == 12, "ChaCha20-Poly1305 takes a 32-byte key and a 12-byte nonce")
        guard let context = c.EVP_CIPHER_CTX_new() else { return false }
        defer { c.EVP_CIPHER_CTX_free(context) }
        let initialize = encrypting ? c.EVP_EncryptInit_ex : c.EVP_DecryptInit_ex
        guard initialize(context, c.EVP_chacha20_poly1305(), nil, key, nonce) == 1 else { return false }
        // A null output makes an update associated data.
        guard associatedData.isEmpty || update(context, encrypting: encrypting, associatedData, into: nil)
        else {
            return false
        }
        return body(context)
    }

    /// Feeds `input` to the cipher, writing as many bytes at `output`; nothing for an empty input (the
    /// final call alone gives the tag then).
    private func update(
        _ context: OpaquePointer, encrypting: Bool, _ input: [UInt8],
        into output: UnsafeMutablePointer<UInt8>?
    ) -> Bool {
        guard !input.isEmpty else { return true }
        var length: Int32 = 0
        let update = encrypting ? c.EVP_EncryptUpdate : c.EVP_DecryptUpdate
        return update(context, output, &length, input, Int32(input.count)) == 1 && Int(length) == input.count
    }

    // MARK: - Hashes and keys

    /// scrypt (RFC 7914) with N = 2^`logN`.
    ///
    /// - Throws: ``VaultError/storage(_:)`` when OpenSSL refuses (out of memory).
    func scrypt(
        password: [UInt8], salt: [UInt8], logN: Int, blockSize: UInt64, parallelism: UInt64,
        outputByteCount: Int
    ) throws(VaultError) -> [UInt8] {
        let rounds = UInt64(1) << UInt64(logN)
        // OpenSSL refuses to use more than `maxmem` bytes (32 MiB when 0 is given): scrypt's V array,
        // 128·r·(N+2) bytes, plus its B array, 128·r·p (OpenSSL 3.0's check, in
        // providers/implementations/kdfs/scrypt.c).
        let memory = 128 * blockSize * (rounds + 2) + 128 * blockSize * parallelism
        var key = [UInt8](repeating: 0, count: outputByteCount)
        let status = password.withNonNullBytes { password in
            salt.withNonNullBytes { salt in
                key.withUnsafeMutableBufferPointer { key in
                    c.EVP_PBE_scrypt(
                        UnsafeRawPointer(password.baseAddress)?.assumingMemoryBound(to: CChar.self),
                        password.count,
                        salt.baseAddress, salt.count, rounds, blockSize, parallelism, memory, key.baseAddress,
                        key.count)
                }
            }
        }
        guard status == 1 else { throw .storage("scrypt failed (out of memory?)") }
        return key
    }

    /// HMAC-SHA-256 (RFC 2104) of `message` under `key`.
    func hmacSHA256(key: [UInt8], message: [UInt8]) throws(VaultError) -> [UInt8] {
        var code = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withNonNullBytes { key in
            message.withNonNullBytes { message in
                code.withUnsafeMutableBufferPointer { code in
                    c.HMAC(
                        c.EVP_sha256(), key.baseAddress, Int32(key.count), message.baseAddress,
                        message.count,
                        code.baseAddress, &length)
                }
            }
        }
        guard result != nil, length == 32 else { throw .storage("HMAC-SHA-256 failed (out of memory?)") }
        return Array(code.prefix(32))
    }

    /// HKDF-SHA-256 (RFC 5869): extract, then expand to `outputByteCount` bytes (at most 255·32), as two
    /// or more HMAC-SHA-256 calls; checked against the RFC's test cases. An empty salt is 32 zero bytes,
    /// as the RFC says.
    func hkdfSHA256(inputKeyMaterial: [UInt8], salt: [UInt8], info: [UInt8], outputByteCount: Int)
        throws(VaultError) -> [UInt8]
    {
        precondition(outputByteCount <= 255 * 32, "HKDF-SHA-256 gives at most 8160 bytes")
        let pseudorandomKey = try hmacSHA256(
            key: salt.isEmpty ? [UInt8](repeating: 0, count: 32) : salt, message: inputKeyMaterial)
        var output: [UInt8] = []
        var block: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < outputByteCount {
            block = try hmacSHA256(key: pseudorandomKey, message: block + info + [counter])
            output += block
            counter &+= 1
        }
        return Array(output.prefix(outputByteCount))
    }

    /// SHA-256 of `data`.
    func sha256(_ data: [UInt8]) throws(VaultError) -> [UInt8] {
        var hash = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = data.withNonNullBytes { data in
            hash.withUnsafeMutableBufferPointer { hash in
                c.EVP_Digest(data.baseAddress, data.count, hash.baseAddress, &length, c.EVP_sha256(), nil)
            }
        }
        guard status == 1, length == 32 else { throw .storage("SHA-256 failed (out of memory?)") }
        return Array(hash.prefix(32))
    }

    /// Whether `first` and `second` are equal, in a time that does not depend on where they differ.
    func equalInConstantTime(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        guard first.count == second.count else { return false }
        return first.withNonNullBytes { first in
            second.withNonNullBytes { second in
                c.CRYPTO_memcmp(first.baseAddress, second.baseAddress, first.count)
            }
        } == 0
    }
}

extension Array where Element == UInt8 {
    /// `body` with the bytes, through a pointer that is never null, even for an empty array: OpenSSL gives
    /// a null pointer a meaning of its own in places (a null HMAC key means "the previous key").
    func withNonNullBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if isEmpty {
            var placeholder: UInt8 = 0
            return withUnsafePointer(to: &placeholder) { body(UnsafeBufferPointer(start: $0, count: 0)) }
        }
        return withUnsafeBufferPointer(body)
    }
}
