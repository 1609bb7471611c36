import FoundationEssentials

/// The ASCII armor age writes with `-a` (C2SP age, "ASCII armor"): strict PEM (RFC 7468 §3) with the
/// label `AGE ENCRYPTED FILE`, base64 with `=` padding in lines of 64 columns, the last one shorter or
/// full, no headers. gymcard reads it (age does) and never writes it.
///
/// Strict as age's own test vectors require: white space only before the first and after the last
/// line, LF or CRLF line ends, no empty or indented line, canonical base64.
enum AgeArmor {
    static let beginLine = Array("-----BEGIN AGE ENCRYPTED FILE-----".utf8)
    static let endLine = Array("-----END AGE ENCRYPTED FILE-----".utf8)
    static let columns = 64

    /// Whether the file, after leading white space, starts like armor (`-----BEGIN`).
    static func looksArmored(_ file: [UInt8]) -> Bool {
        file.drop(while: isWhiteSpace).starts(with: Array("-----BEGIN".utf8))
    }

    /// The binary age file inside the armor.
    ///
    /// - Throws: ``VaultError/damaged(_:)`` saying what is wrong with the armor.
    static func decode(_ file: [UInt8]) throws(VaultError) -> [UInt8] {
        let trimmed = file.drop(while: isWhiteSpace).reversed().drop(while: isWhiteSpace).reversed()
        var lines = trimmed.split(separator: 10, omittingEmptySubsequences: false).map { line in
            line.last == 13 ? Array(line.dropLast()) : Array(line)
        }
        guard lines.first == beginLine else {
            throw .damaged("the armor does not begin with \"-----BEGIN AGE ENCRYPTED FILE-----\"")
        }
        guard lines.count >= 2, lines.last == endLine else {
            throw .damaged("the armor does not end with \"-----END AGE ENCRYPTED FILE-----\"")
        }
        lines.removeFirst()
        lines.removeLast()
        var text: [UInt8] = []
        for (index, line) in lines.enumerated() {
            let isLast = index == lines.count - 1
            guard !line.isEmpty else { throw .damaged("the armor has an empty line") }
            guard line.count == columns || (isLast && line.count < columns) else {
                throw .damaged("an armor line is not \(columns) characters long")
            }
            let padding = line.reversed().prefix { $0 == UInt8(ascii: "=") }.count
            guard isLast || padding == 0, line.dropLast(padding).allSatisfy(UnpaddedBase64.isAlphabet) else {
                throw .damaged("the armor holds a character that is not base64")
            }
            text += line
        }
        guard text.count % 4 == 0, let data = Data(base64Encoded: Data(text)) else {
            throw .damaged("the armor's base64 is not padded correctly")
        }
        let bytes = [UInt8](data)
        // Canonical: encoding the bytes again gives the same text (unused low bits are zero).
        guard Array(Data(bytes).base64EncodedString().utf8) == text else {
            throw .damaged("the armor's base64 is not canonical")
        }
        return bytes
    }

    private static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 32 || byte == 9 || byte == 10 || byte == 13
    }
}
