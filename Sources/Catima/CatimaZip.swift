import CZip
import DynamicLoading
import Glibc

/// The zip archive of a Catima export, through libzip.
///
/// Catima (since 2.0) exports a zip holding `catima.csv` and the cards' images
/// (`card_<id>_{front,back,icon}.png`); its importer refuses the whole file for any other entry. It writes
/// with zip4j: deflated entries and, with a password, WinZip AES encryption at zip4j's default strength,
/// AES-256 (AE-2). gymcard writes `catima.csv` alone, the same way; it reads any entry encryption libzip
/// reads (AES-128/192/256, traditional PKWARE).
public enum CatimaZip {
    /// Whether libzip loads here (Catima's export zips read).
    public static var isAvailable: Bool { loadingError == nil }

    /// Why libzip cannot be bound, or `nil`.
    public static var loadingError: LoadingError? { LibZip.functions.loadingError }

    /// The largest `catima.csv` read (16 MiB; a card is a few hundred bytes).
    static let maximumCSVBytes: UInt64 = 16 << 20

    /// A zip archive holding `csv` as `catima.csv`, AES-256 encrypted when `password` is given.
    public static func archive(csv: [UInt8], password: String?) throws(CatimaError) -> [UInt8] {
        if let password, password.isEmpty { throw .emptyPassword }
        let zip = try LibZip.loaded()
        var error = zip_error_t()
        zip.zip_error_init(&error)
        defer { zip.zip_error_fini(&error) }
        guard let target = zip.zip_source_buffer_create(nil, 0, 0, &error) else {
            throw .zipWriteFailed(zip.describe(&error).text)
        }
        defer { zip.zip_source_free(target) }
        guard let archive = zip.zip_open_from_source(target, ZIP_TRUNCATE, &error) else {
            throw .zipWriteFailed(zip.describe(&error).text)
        }
        // zip_close frees the source it wrote to unless kept; the bytes are read from it afterwards.
        zip.zip_source_keep(target)
        func failure() -> CatimaError {
            let text = zip.zip_get_error(archive).map { zip.describe($0).text } ?? "unknown error"
            zip.zip_discard(archive)
            return .zipWriteFailed(text)
        }
        guard let entry = zip.source(copying: csv, error: &error) else {
            zip.zip_discard(archive)
            throw .zipWriteFailed(zip.describe(&error).text)
        }
        let index = zip.zip_file_add(archive, "catima.csv", entry, ZIP_FL_ENC_UTF_8)
        guard index >= 0 else {
            zip.zip_source_free(entry)
            throw failure()
        }
        if let password {
            let status = password.withCString {
                zip.zip_file_set_encryption(archive, UInt64(index), UInt16(ZIP_EM_AES_256), $0)
            }
            guard status == 0 else { throw failure() }
        }
        guard zip.zip_close(archive) == 0 else { throw failure() }
        return try readAll(target, zip)
    }

    /// The bytes a libzip source holds.
    private static func readAll(_ source: OpaquePointer, _ zip: gymcard_zip_functions) throws(CatimaError)
        -> [UInt8]
    {
        guard zip.zip_source_open(source) == 0 else {
            throw .zipWriteFailed("could not read the archive back")
        }
        defer { _ = zip.zip_source_close(source) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes {
                zip.zip_source_read(source, $0.baseAddress, UInt64($0.count))
            }
            guard count >= 0 else { throw .zipWriteFailed("could not read the archive back") }
            if count == 0 { return bytes }
            bytes += chunk[0..<Int(count)]
        }
    }

    /// Whether `bytes` start like a zip archive (a local file header, or the end record of an empty one).
    public static func looksLikeZip(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }

    /// The `catima.csv` of a Catima zip, decrypted with `password` when its entries are encrypted.
    ///
    /// The entry is found by the last segment of its name, as Catima's importer does; other entries (the
    /// cards' images) are not read.
    public static func catimaCSV(in bytes: [UInt8], password: String?) throws(CatimaError) -> [UInt8] {
        let zip = try LibZip.loaded()
        var error = zip_error_t()
        zip.zip_error_init(&error)
        defer { zip.zip_error_fini(&error) }
        guard let source = zip.source(copying: bytes, error: &error) else {
            throw .damagedZip(zip.describe(&error).text)
        }
        guard let archive = zip.zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error) else {
            zip.zip_source_free(source)
            throw .damagedZip(zip.describe(&error).text)
        }
        defer { zip.zip_discard(archive) }
        let count = zip.zip_get_num_entries(archive, 0)
        var found: (index: UInt64, size: UInt64, isAE2Suspect: Bool)?
        for index in 0..<UInt64(max(count, 0)) {
            var status = zip_stat_t()
            guard zip.zip_stat_index(archive, index, 0, &status) == 0, let name = status.name else {
                continue
            }
            let path = String(cString: name)
            let lastSegment = path.split(separator: "/").last.map(String.init) ?? path
            if lastSegment == "catima.csv" {
                let isAES = (0x0101...0x0103).contains(status.encryption_method)
                found = (
                    index, status.valid & UInt64(ZIP_STAT_SIZE) != 0 ? status.size : 0,
                    isAES && status.valid & UInt64(ZIP_STAT_CRC) != 0 && status.crc == 0
                )
                break
            }
        }
        guard let found else { throw .noCatimaCSV }
        guard found.size <= maximumCSVBytes else {
            throw .entryTooLarge(name: "catima.csv", bytes: found.size)
        }
        let file: OpaquePointer? =
            if let password {
                password.withCString { zip.zip_fopen_index_encrypted(archive, found.index, 0, $0) }
            } else {
                zip.zip_fopen_index_encrypted(archive, found.index, 0, nil)
            }
        guard let file else {
            throw classify(
                zip.zip_get_error(archive).map { zip.describe($0) } ?? (ZIP_ER_INTERNAL, "unknown error"))
        }
        defer { _ = zip.zip_fclose(file) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let read = chunk.withUnsafeMutableBytes { zip.zip_fread(file, $0.baseAddress, UInt64($0.count)) }
            guard read >= 0 else {
                // libzip 1.7.3 (Debian 12) checks the CRC of WinZip AE-2 entries, whose CRC is 0 by the
                // specification, and reports a CRC error after the last byte (libzip issue #261, fixed in
                // later releases): every encrypted Catima export is AE-2 (zip4j's default). That one error
                // is taken as the end when all the entry's bytes came out; the inflater and the CSV reader
                // still catch damage, the entry's HMAC is not checked on this path.
                if found.isAE2Suspect, UInt64(contents.count) == found.size,
                    zip.zip_file_get_error(file).map({ zip.zip_error_code_zip($0) }) == ZIP_ER_CRC
                {
                    break
                }
                throw classify(
                    zip.zip_file_get_error(file).map { zip.describe($0) } ?? (
                        ZIP_ER_INTERNAL, "unknown error"
                    ))
            }
            if read == 0 { break }
            contents += chunk[0..<Int(read)]
            guard UInt64(contents.count) <= maximumCSVBytes else {
                throw .entryTooLarge(name: "catima.csv", bytes: UInt64(contents.count))
            }
        }
        return contents
    }

    private static func classify(_ error: (code: Int32, text: String)) -> CatimaError {
        switch error.code {
        case ZIP_ER_NOPASSWD: return .passwordNeeded
        case ZIP_ER_WRONGPASSWD: return .wrongPassword
        default: return .damagedZip(error.text)
        }
    }
}
