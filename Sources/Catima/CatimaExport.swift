import Storage

/// A card on its way to Catima, and Catima's files on their way in: the calls the `export`, `import` and
/// `share` commands make.
public enum CatimaExport {
    /// The formats of an export file.
    public enum Format: Sendable, Equatable {
        /// The zip archive Catima 2.0 and later write (`catima.csv` inside), optionally encrypted.
        case zip(password: String?)
        /// The bare `catima.csv`, which every Catima version imports.
        case csv
    }

    /// The bytes of an export of `card` in `format`.
    public static func bytes(for card: CatimaCard, format: Format) throws(CatimaError) -> [UInt8] {
        let csv = CatimaCSV.export(card)
        switch format {
        case .csv: return csv
        case .zip(let password): return try CatimaZip.archive(csv: csv, password: password)
        }
    }

    /// Writes an export to a path a person named, as Storage writes such paths: a device or FIFO is
    /// opened and written, never renamed over; a regular file is replaced atomically keeping its mode; a
    /// new file appears complete or not at all. Whether an existing file may be replaced is the caller's
    /// decision: ask ``existingFile(at:)`` first.
    public static func write(_ bytes: [UInt8], to path: String) throws(StorageError) {
        try UserFile.write(bytes, to: path)
    }

    /// Whether `path` (through its symbolic links) names an existing regular file, which writing would
    /// replace; devices, FIFOs and `/dev/fd/N` are written in place, so they are not.
    public static func existingFile(at path: String) throws(StorageError) -> Bool {
        if case .regularFile = try UserFile.target(of: path) { return true }
        return false
    }

    /// The cards of a Catima export, a zip archive (with its password when encrypted) or a bare CSV,
    /// told apart by their first bytes as Catima's importer does (zip first, else CSV).
    public static func cards(in bytes: [UInt8], password: String?) throws(CatimaError) -> CatimaCSV.Contents {
        if CatimaZip.looksLikeZip(bytes) {
            return try CatimaCSV.read(CatimaZip.catimaCSV(in: bytes, password: password))
        }
        return try CatimaCSV.read(bytes)
    }
}
