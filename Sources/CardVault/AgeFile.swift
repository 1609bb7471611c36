import DynamicLoading
import FoundationEssentials

/// The age v1 file format (C2SP age) with one scrypt passphrase stanza, so the card can always be
/// recovered with the standard `age -d` or rage, without gymcard.
///
/// Layout: a text header (version line, the scrypt stanza with its 16-byte salt and work factor, and an
/// HMAC-SHA-256 over the header keyed from the file key), then a 16-byte nonce and the payload in
/// ChaCha20-Poly1305 chunks of 64 KiB with a big-endian counter and a final-chunk flag. The primitives
/// are libcrypto's (``LibCrypto``), loaded only when a file is encrypted or opened.
public enum AgeFile {
    /// The work factor written by default: 2^18, about a second, as age does.
    public static let defaultWorkFactor = 18
    /// Never written below 2^17 (OWASP's scrypt floor).
    public static let minimumWorkFactor = 17
    /// Refused above 2^22 when read, before running scrypt (it would take a minute and 4 GiB).
    public static let maximumWorkFactor = 22

    static let versionLine = "age-encryption.org/v1"
    static let scryptLabel = Array("age-encryption.org/v1/scrypt".utf8)
    static let chunkSize = 64 * 1024
    /// The nonce that wraps the file key: each wrap key is used once, under a fresh salt.
    static let zeroNonce = [UInt8](repeating: 0, count: 12)

    /// Encrypts `plaintext` under `passphrase` at the default work factor.
    public static func encrypt(_ plaintext: [UInt8], passphrase: [UInt8]) throws(VaultError) -> [UInt8] {
        try encrypt(plaintext, passphrase: passphrase, workFactor: defaultWorkFactor)
    }

    /// Encrypts at any work factor: the test-only hook for tiny factors (the CLI never goes below 17).
    static func encrypt(_ plaintext: [UInt8], passphrase: [UInt8], workFactor: Int) throws(VaultError)
        -> [UInt8]
    {
        guard !passphrase.isEmpty else { throw .emptyPassphrase }
        let crypto = try LibCrypto.loaded()
        let fileKey = randomBytes(16)
        let salt = randomBytes(16)
        let wrapKey = try deriveWrapKey(crypto, passphrase: passphrase, salt: salt, workFactor: workFactor)
        let body = try crypto.sealChaChaPoly(fileKey[...], key: wrapKey, nonce: zeroNonce)
        var header = versionLine + "\n"
        header += "-> scrypt \(UnpaddedBase64.encode(salt)) \(workFactor)\n"
        header += wrapped(UnpaddedBase64.encode(body))
        header += "---"
        let mac = try crypto.hmacSHA256(key: try headerKey(crypto, fileKey), message: Array(header.utf8))
        header += " " + UnpaddedBase64.encode(mac) + "\n"
        let nonce = randomBytes(16)
        return Array(header.utf8) + nonce
            + (try sealPayload(crypto, plaintext, fileKey: fileKey, nonce: nonce))
    }

    /// Decrypts a file, binary or armored (`age -a`); `passphrase` is asked for only once the header has
    /// been checked, so a damaged or unsupported file is reported without prompting, and a work factor
    /// above the maximum without running scrypt.
    public static func decrypt(_ file: [UInt8], passphrase: () throws -> [UInt8]) throws -> [UInt8] {
        let file = AgeArmor.looksArmored(file) ? try AgeArmor.decode(file) : file
        let header = try parseHeader(file)
        let crypto = try LibCrypto.loaded()
        let wrapKey = try deriveWrapKey(
            crypto, passphrase: try passphrase(), salt: header.salt, workFactor: header.workFactor)
        // A wrong passphrase and a damaged stanza body fail the same tag: the format cannot tell them apart.
        guard let fileKey = crypto.openChaChaPoly(header.body[...], key: wrapKey, nonce: zeroNonce) else {
            throw VaultError.wrongPassphrase
        }
        guard fileKey.count == 16 else { throw VaultError.damaged("the file key has the wrong size") }
        let mac = try crypto.hmacSHA256(key: try headerKey(crypto, fileKey), message: header.macInput)
        guard crypto.equalInConstantTime(mac, header.mac) else {
            throw VaultError.damaged("the header's MAC does not match")
        }
        return try openPayload(crypto, Array(file[header.payloadStart...]), fileKey: fileKey)
    }

    /// Checks what can be checked without the passphrase: an age v1 passphrase file, binary or armored,
    /// whose header parses and whose payload holds at least a nonce and one chunk's tag (32 bytes).
    /// Damage inside the encrypted payload shows only when it is opened.
    static func checkStructure(_ file: [UInt8]) throws(VaultError) {
        let file = AgeArmor.looksArmored(file) ? try AgeArmor.decode(file) : file
        let header = try parseHeader(file)
        guard file.count - header.payloadStart >= 32 else { throw .damaged("the payload is cut short") }
    }

    /// Whether libcrypto, which encrypting and opening need, loads (``LibCrypto``).
    public static var isCryptoAvailable: Bool { cryptoLoadingError == nil }

    /// Why libcrypto cannot be bound, or `nil`.
    public static var cryptoLoadingError: LoadingError? { LibCrypto.functions.loadingError }

    /// Fails as encrypting or opening would when libcrypto cannot be bound: for a command to stop before it
    /// asks a passphrase or takes the store's lock.
    public static func requireCrypto() throws(VaultError) { _ = try LibCrypto.loaded() }

    /// Whether the bytes begin like an age file, binary or armored.
    public static func looksLikeAge(_ file: [UInt8]) -> Bool {
        file.starts(with: Array("age-encryption.org/".utf8)) || AgeArmor.looksArmored(file)
    }

    // MARK: - Header

    struct Header {
        var salt: [UInt8]
        var workFactor: Int
        var body: [UInt8]
        var macInput: [UInt8]
        var mac: [UInt8]
        var payloadStart: Int
    }

    static func parseHeader(_ file: [UInt8]) throws(VaultError) -> Header {
        guard !file.isEmpty else { throw .damaged("empty file") }
        guard file.starts(with: Array("age-encryption.org/".utf8)) else { throw .damaged("not an age file") }
        var lines = HeaderLines(file)
        guard let version = try lines.next() else { throw .damaged("the version line is cut short") }
        guard version == versionLine else { throw .unsupported("age version \(version.dropFirst(19))") }
        // Every stanza is read, so that an scrypt stanza beside another one is caught wherever it is.
        var stanzas: [(arguments: [Substring], body: String)] = []
        var end = ""
        while true {
            guard let line = try lines.next() else { throw .damaged("the header is cut short") }
            if line.hasPrefix("---") {
                end = line
                break
            }
            guard line.hasPrefix("-> ") else {
                throw .damaged("a header line is neither a stanza nor the MAC")
            }
            var bodyText = ""
            while true {
                guard let bodyLine = try lines.next() else { throw .damaged("the header is cut short") }
                guard bodyLine.count <= 64 else { throw .damaged("malformed stanza body") }
                bodyText += bodyLine
                if bodyLine.count < 64 { break }
            }
            stanzas.append(
                (line.dropFirst(3).split(separator: " ", omittingEmptySubsequences: false), bodyText))
        }
        guard let first = stanzas.first else { throw .damaged("no recipient stanza") }
        guard let stanza = stanzas.first(where: { $0.arguments.first == "scrypt" }) else {
            throw .unsupported(
                "it is encrypted to a key (\(first.arguments.first ?? "?")), not with a passphrase")
        }
        // The spec: an scrypt stanza must be alone in the header.
        guard stanzas.count == 1 else { throw .damaged("a passphrase stanza is not alone in the header") }
        let arguments = stanza.arguments
        guard arguments.count == 3, let salt = UnpaddedBase64.decode(arguments[1]), salt.count == 16 else {
            throw .damaged("malformed scrypt stanza")
        }
        let factorText = arguments[2]
        guard let firstDigit = factorText.first, firstDigit != "0", factorText.allSatisfy(\.isASCII),
            factorText.allSatisfy(\.isNumber),
            factorText.count <= 2, let workFactor = Int(factorText)
        else { throw .damaged("malformed work factor") }
        guard workFactor <= maximumWorkFactor else {
            throw .workFactorTooHigh(workFactor, maximum: maximumWorkFactor)
        }
        guard let body = UnpaddedBase64.decode(Substring(stanza.body)), body.count == 32 else {
            throw .damaged("the scrypt stanza's body is not 32 bytes")
        }
        guard end.hasPrefix("--- "), let mac = UnpaddedBase64.decode(end.dropFirst(4)), mac.count == 32 else {
            throw .damaged("malformed header MAC")
        }
        // The MAC covers the header up to and including "---", without the space after it.
        let macInput = Array(file[..<(lines.offsetOfLastLine + 3)])
        return Header(
            salt: salt, workFactor: workFactor, body: body, macInput: macInput, mac: mac,
            payloadStart: lines.offset)
    }

    /// Splits the header into LF-terminated lines of printable ASCII; the payload starts after the MAC line.
    struct HeaderLines {
        let bytes: [UInt8]
        var offset = 0
        var offsetOfLastLine = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        /// The next line, or `nil` when there is none or it is not printable ASCII.
        ///
        /// - Throws: ``VaultError/damaged(_:)`` when the line ends in CR LF: the file went through a
        ///   text conversion, which also breaks the header's MAC, so say that rather than "damaged".
        mutating func next() throws(VaultError) -> String? {
            guard let newline = bytes[offset...].prefix(4096).firstIndex(of: 10) else { return nil }
            let line = bytes[offset..<newline]
            if line.last == 13 {
                throw .damaged(
                    "its header lines end in CR LF, as Windows text does, not LF: the file was converted "
                        + "as text; use the original file")
            }
            guard line.allSatisfy({ (32...126).contains($0) }) else { return nil }
            offsetOfLastLine = offset
            offset = newline + 1
            return String(decoding: line, as: UTF8.self)
        }
    }

    static func wrapped(_ text: String) -> String {
        var lines: [Substring] = []
        var rest = Substring(text)
        while rest.count >= 64 {
            lines.append(rest.prefix(64))
            rest = rest.dropFirst(64)
        }
        lines.append(rest)  // the final line is shorter than 64, possibly empty
        return lines.map { $0 + "\n" }.joined()
    }

    // MARK: - Keys

    static func deriveWrapKey(_ crypto: LibCrypto, passphrase: [UInt8], salt: [UInt8], workFactor: Int)
        throws(VaultError) -> [UInt8]
    {
        guard !passphrase.isEmpty else { throw .emptyPassphrase }
        guard (1...maximumWorkFactor).contains(workFactor) else {
            throw .workFactorTooHigh(workFactor, maximum: maximumWorkFactor)
        }
        return try crypto.scrypt(
            password: passphrase, salt: scryptLabel + salt, logN: workFactor, blockSize: 8, parallelism: 1,
            outputByteCount: 32)
    }

    static func headerKey(_ crypto: LibCrypto, _ fileKey: [UInt8]) throws(VaultError) -> [UInt8] {
        try crypto.hkdfSHA256(
            inputKeyMaterial: fileKey, salt: [], info: Array("header".utf8), outputByteCount: 32)
    }

    static func payloadKey(_ crypto: LibCrypto, _ fileKey: [UInt8], nonce: [UInt8]) throws(VaultError)
        -> [UInt8]
    {
        try crypto.hkdfSHA256(
            inputKeyMaterial: fileKey, salt: nonce, info: Array("payload".utf8), outputByteCount: 32)
    }

    // MARK: - Payload (STREAM)

    static func chunkNonce(_ counter: Int, isFinal: Bool) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 12)
        var value = UInt64(counter)
        for index in stride(from: 10, through: 3, by: -1) {
            bytes[index] = UInt8(value & 0xFF)
            value >>= 8
        }
        bytes[11] = isFinal ? 1 : 0
        return bytes
    }

    static func sealPayload(_ crypto: LibCrypto, _ plaintext: [UInt8], fileKey: [UInt8], nonce: [UInt8])
        throws(VaultError) -> [UInt8]
    {
        let key = try payloadKey(crypto, fileKey, nonce: nonce)
        var output: [UInt8] = []
        var start = 0
        var counter = 0
        repeat {
            let end = min(plaintext.count, start + chunkSize)
            let isFinal = end == plaintext.count
            output += try crypto.sealChaChaPoly(
                plaintext[start..<end], key: key, nonce: chunkNonce(counter, isFinal: isFinal))
            start = end
            counter += 1
        } while start < plaintext.count
        return output
    }

    static func openPayload(_ crypto: LibCrypto, _ payload: [UInt8], fileKey: [UInt8]) throws(VaultError)
        -> [UInt8]
    {
        guard payload.count >= 16 + 16 else { throw .damaged("the payload is cut short") }
        let key = try payloadKey(crypto, fileKey, nonce: Array(payload.prefix(16)))
        let body = payload.dropFirst(16)
        var plaintext: [UInt8] = []
        var start = body.startIndex
        var counter = 0
        while start < body.endIndex {
            let end = min(body.endIndex, start + chunkSize + 16)
            let isFinal = end == body.endIndex
            guard end - start >= 16 else { throw .damaged("the payload is cut short") }
            guard
                let chunk = crypto.openChaChaPoly(
                    body[start..<end], key: key, nonce: chunkNonce(counter, isFinal: isFinal))
            else { throw .damaged("the payload does not authenticate") }
            // Only the first chunk of an empty payload may be empty.
            guard !chunk.isEmpty || counter == 0 else { throw .damaged("an empty final chunk") }
            plaintext += chunk
            start = end
            counter += 1
        }
        return plaintext
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
