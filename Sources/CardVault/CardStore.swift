import FoundationEssentials
import Glibc
import Storage

/// Where and how the card is kept: `$XDG_DATA_HOME/gymcard/card.age` (age, passphrase) or `card.json`
/// (no passphrase), mode 0600 in a 0700 directory, each write crash-safe with the previous good version
/// kept as `.bak`, writers serialised by a lock.
public struct CardStore: Sendable {
    /// How the stored card is protected.
    public enum Protection: Equatable, Sendable {
        /// An age file behind a passphrase.
        case passphrase
        /// JSON in the clear.
        case unencrypted
    }

    /// A card read from disk.
    public struct Loaded: Sendable {
        /// The record.
        public var record: CardRecord
        /// How it was stored.
        public var protection: Protection
        /// Things to tell the person (a backup was used, the file is readable by others).
        public var warnings: [String]
    }

    /// The `gymcard` directory under the data home.
    public let directory: String

    /// The encrypted card.
    public var encryptedPath: String { directory + "/card.age" }
    /// The unencrypted card.
    public var plainPath: String { directory + "/card.json" }
    /// The card's file for a protection (its previous card is this path plus `.bak`).
    public func path(for protection: Protection) -> String {
        protection == .passphrase ? encryptedPath : plainPath
    }
    var lockPath: String { directory + "/.lock" }

    /// The store under the given XDG data home.
    public init(directories: XDGDirectories) { directory = directories.dataHome + "/gymcard" }

    /// The store in a given directory (tests).
    public init(directory: String) { self.directory = directory }

    /// How the current card is protected, or `nil` when there is none (backups included).
    public func protection() -> Protection? {
        if exists(encryptedPath) || exists(encryptedPath + ".bak") { return .passphrase }
        if exists(plainPath) || exists(plainPath + ".bak") { return .unencrypted }
        return nil
    }

    /// Reads the card, asking for the passphrase only when it is encrypted. Never the previous card in
    /// its place: that is another card (what the last change replaced), so a missing or damaged card is
    /// an error, and `card --restore` is how the previous one comes back.
    public func load(passphrase: () throws -> [UInt8]) throws -> Loaded {
        guard let protection = protection() else { throw VaultError.noCard }
        let path = self.path(for: protection)
        guard exists(path) else { throw VaultError.onlyPrevious }
        var warnings: [String] = []
        let record = try read(path, protection: protection, passphrase: passphrase, warnings: &warnings)
        return Loaded(record: record, protection: protection, warnings: warnings)
    }

    /// Checks a card file's bytes as far as can be done without the passphrase: an age header that parses
    /// and a payload of at least a tag, or a whole unencrypted record.
    static func checkStructure(_ bytes: [UInt8], protection: Protection) throws(VaultError) {
        switch protection {
        case .passphrase: try AgeFile.checkStructure(bytes)
        case .unencrypted: _ = try CardRecord.decoded(bytes)
        }
    }

    /// Why the stored card cannot be used, as far as can be told without its passphrase (`doctor`):
    /// ``VaultError/onlyPrevious``, or damage (a directory or FIFO in its place included); `nil` when it
    /// looks whole or there is none.
    public func problemSeenWithoutPassphrase() -> VaultError? {
        guard let protection = protection() else { return nil }
        let path = self.path(for: protection)
        guard exists(path) else { return .onlyPrevious }
        do { try Self.checkStructure(try readFile(path), protection: protection) } catch { return error }
        return nil
    }

    /// Stores a record, encrypted under `passphrase` or in the clear when it is `nil`. The file it
    /// replaces becomes the backup.
    public func save(_ record: CardRecord, passphrase: [UInt8]?) throws(VaultError) {
        try save(record, passphrase: passphrase, workFactor: AgeFile.defaultWorkFactor)
    }

    /// The test-only hook: any work factor.
    func save(_ record: CardRecord, passphrase: [UInt8]?, workFactor: Int) throws(VaultError) {
        // Encrypted before the lock is taken: scrypt takes about a second, and nothing is read here.
        let bytes = try Self.fileBytes(record, passphrase: passphrase, workFactor: workFactor)
        try whileWriting(workFactor: workFactor) { (store) throws(VaultError) in
            try store.write(bytes, protected: passphrase != nil)
        }
    }

    /// Stores the same card under a new passphrase, or in the clear when it is `nil` (`passphrase set`,
    /// `change`, `remove`). Afterwards no file of the store opens with the old passphrase: the backups
    /// go first, the new file replaces the card, and the backup becomes a copy of the new file. A crash
    /// part-way leaves the old card (the change did not happen) or the new one, never an old-passphrase
    /// backup beside a new card.
    public func rewrap(_ record: CardRecord, passphrase: [UInt8]?) throws(VaultError) {
        try rewrap(record, passphrase: passphrase, workFactor: AgeFile.defaultWorkFactor)
    }

    /// The test-only hook: any work factor.
    func rewrap(_ record: CardRecord, passphrase: [UInt8]?, workFactor: Int) throws(VaultError) {
        try whileWriting(workFactor: workFactor) { (store) throws(VaultError) in
            _ = try store.rewrap(record, passphrase: passphrase)
        }
    }

    /// Deletes the card, its backups and any temporary file a killed writer left. Returns whether there
    /// was a card to delete.
    @discardableResult
    public func forget() throws(VaultError) -> Bool {
        guard protection() != nil else { return false }
        return try whileWriting(workFactor: AgeFile.defaultWorkFactor) { (store) throws(VaultError) in
            try store.forget()
        }
    }

    /// Runs a read-modify-write of the card holding the store's lock from before the read to after the
    /// write, so that no other gymcard changes the card in between: `body` reads and writes through the
    /// ``Locked`` store it is given. When another process holds the lock, `whenBusy` is called once and
    /// this waits for it. Nothing that waits on a person (a passphrase prompt) belongs in `body`: every
    /// other writer would wait for that person too.
    public func whileLocked<Result>(whenBusy: () -> Void = {}, _ body: (Locked) throws -> Result) throws
        -> Result
    {
        try whileLocked(workFactor: AgeFile.defaultWorkFactor, whenBusy: whenBusy, body)
    }

    /// The same with another scrypt work factor for what `body` writes: for tests, which cannot spend
    /// seconds on each write (reading follows the factor in the file).
    public func whileLocked<Result>(
        workFactor: Int, whenBusy: () -> Void = {}, _ body: (Locked) throws -> Result
    )
        throws -> Result
    {
        try makeDirectory()
        do { return try holdingLock(workFactor: workFactor, whenBusy: whenBusy, body) } catch {
            switch error {
            case .storage(let failure): throw VaultError.storage(failure.description)
            case .body(let failure): throw failure
            }
        }
    }

    /// ``whileLocked(whenBusy:_:)`` for the store's own one-step writes, whose only errors are vault errors.
    private func whileWriting<Result>(workFactor: Int, _ body: (Locked) throws(VaultError) -> Result)
        throws(VaultError) -> Result
    {
        try makeDirectory()
        do { return try holdingLock(workFactor: workFactor, whenBusy: {}, body) } catch {
            switch error {
            case .storage(let failure): throw .storage(failure.description)
            case .body(let failure): throw failure
            }
        }
    }

    /// Takes the lock, removes what a killed writer left, runs `body`, and flushes the directory so that
    /// the change survives a crash.
    private func holdingLock<Result, Failure: Error>(
        workFactor: Int, whenBusy: () -> Void, _ body: (Locked) throws(Failure) -> Result
    ) throws(FileLock.LockError<Failure>) -> Result {
        let locked = Locked(store: self, workFactor: workFactor)
        return try FileLock.withExclusiveLock(on: lockPath, whenBusy: whenBusy) { () throws(Failure) in
            removeStaleTemporaryFiles()
            defer { AtomicFile.syncDirectory(directory) }
            return try body(locked)
        }
    }

    /// The file's bytes: an age file under `passphrase`, or the JSON record with a newline.
    static func fileBytes(_ record: CardRecord, passphrase: [UInt8]?, workFactor: Int)
        throws(VaultError) -> [UInt8]
    {
        guard let passphrase else { return record.encoded() + [10] }
        return try AgeFile.encrypt(record.encoded(), passphrase: passphrase, workFactor: workFactor)
    }

    /// Writes one of the store's files: 0600, durable, atomic.
    func write(_ bytes: [UInt8], to path: String) throws(VaultError) {
        do { try AtomicFile.write(bytes, to: path, permissions: 0o600, durable: true) } catch {
            throw .storage("cannot write the card: \(error)")
        }
    }

    /// Nothing readable may outlive encryption, and an encrypted copy is stale once the card is in the
    /// clear: the other protection's file and backup go.
    func removeOtherProtection(than target: String) {
        let other = target == encryptedPath ? plainPath : encryptedPath
        remove(other)
        remove(other + ".bak")
    }

    // MARK: - Files

    private func read(
        _ path: String, protection: Protection, passphrase: () throws -> [UInt8], warnings: inout [String]
    ) throws -> CardRecord {
        let bytes = try readFile(path)
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & 0o077 != 0 {
            warnings.append(
                "\(path) can be read by other users (mode \(String(status.st_mode & 0o777, radix: 8))); "
                    + "run chmod 600 on it")
        }
        switch protection {
        case .passphrase: return try CardRecord.decoded(try AgeFile.decrypt(bytes, passphrase: passphrase))
        case .unencrypted: return try CardRecord.decoded(bytes)
        }
    }

    /// The test hook for age's own test vectors: `card.age` read and decrypted as ``load(passphrase:)``
    /// reads it (size limit included), without decoding a card record.
    func readDecrypted(passphrase: () throws -> [UInt8]) throws -> [UInt8] {
        try AgeFile.decrypt(try readFile(encryptedPath), passphrase: passphrase)
    }

    func readFile(_ path: String) throws(VaultError) -> [UInt8] {
        // O_NONBLOCK: a FIFO in the card's place must be refused below, not waited on for a writer.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw .noCard }
            throw .storage(StorageError(errno: errno, path: path, operation: "read").description)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw .damaged("\(path) is not a regular file")
        }
        guard status.st_size <= 1 << 20 else { throw .damaged("the file is larger than any card") }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count == bytes.count else { throw .storage("\(path): could not read the whole file") }
        return bytes
    }

    func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    func remove(_ path: String) {
        // An empty directory someone made in the card's place goes too; anything else is left.
        if unlink(path) != 0, errno == EISDIR { rmdir(path) }
    }

    /// Temporary files a killed writer left behind. Writers hold the lock, so under the lock any such
    /// file is stale: the card itself is always the old or the new version, never one of these.
    fileprivate func removeStaleTemporaryFiles() {
        guard let listing = opendir(directory) else { return }
        defer { closedir(listing) }
        var stale: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            let isTemporary =
                (name.hasPrefix(".card.") && name.contains(".tmp-")) || name.hasSuffix(".bak.new")
            if isTemporary { stale.append(directory + "/" + name) }
        }
        for path in stale { unlink(path) }
    }

    /// Creates the directory (and missing parents) 0700, and tightens an existing one to 0700.
    private func makeDirectory() throws(VaultError) {
        do { try Directory.create(directory, permissions: 0o700, tighten: true) } catch {
            throw .storage(error.description)
        }
    }
}
