/// A check of a Catima export written from Catima's importer, not from gymcard's reader: it reads a file
/// the way `CatimaImporter.importData` does (CatimaLoyalty/Android,
/// app/src/main/java/protect/card_locker/importexport/CatimaImporter.java and CSVHelpers.java; the
/// RFC 4180 parsing is Apache Commons CSV's `CSVFormat.RFC4180` with `setHeader()`), step by step:
///
/// - zip entries: the last path segment must be `catima.csv`, or a PNG named like a card image
///   (`card_<id>_(front|back|icon).png`); any other entry throws "Unexpected file in import".
/// - the CSV is read as UTF-8; `parseVersion` reads up to five characters until white space, all digits
///   or version 1.
/// - version 2: lines are read with `BufferedReader.readLine` (CR, LF or CRLF end a line); an empty line
///   closes a part (0 version, 1 groups, 2 cards, 3 card groups); a part that fails to parse is taken as a
///   multi-line field cut at a blank line, and the next lines are appended (with `\n`) until it parses.
///   At the end, a part that never parsed leaves its list empty.
/// - each part: Commons CSV, first record the header; a record shorter than the header makes `get` throw
///   (IllegalArgumentException: the import fails).
/// - each card: `_id` an int (required), `store` non-empty, `cardid` non-empty, `barcodetype` empty or a
///   ZXing `BarcodeFormat` name (`valueOf` throws otherwise: the import fails), `balancetype` empty or a
///   currency code, `headercolor` an int or ignored, `starstatus`/`archive` 1 or 0, `barcodeencoding`
///   empty or a name `Charset.forName` knows (otherwise it throws: the import fails).
enum CatimaImporterModel {
    /// Catima's `FormatException` (and what its importer converts to it).
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A runtime exception the importer does not catch (IllegalArgumentException from Commons CSV's
    /// `get`, `BarcodeFormat.valueOf`, `Currency.getInstance`): the whole import fails.
    struct Crash: Error, CustomStringConvertible {
        let description: String
    }

    /// `try?` for `catch (FormatException e)`: a Failure gives nil, a Crash goes on.
    static func unlessFormatException<T>(_ body: () throws -> T) throws -> T? {
        do { return try body() } catch is Failure { return nil }
    }

    struct Card: Equatable {
        var id: Int32
        var store: String
        var note: String
        var cardID: String
        var barcodeID: String?
        var barcodeType: String?
        var headerColor: Int32?
        var starStatus: Int
        /// `barcodeencoding` as `Charset.name()`, or `nil` for an empty field (Catima's "none").
        var barcodeEncoding: String? = nil
    }

    struct Imported {
        var groups: [String] = []
        var cards: [Card] = []
        var cardGroups: [(Int32, String)] = []
    }

    /// ZXing's `BarcodeFormat` values, which `CatimaBarcode.fromName` accepts through `valueOf`.
    static let zxingFormats: Set<String> = [
        "AZTEC", "CODABAR", "CODE_39", "CODE_93", "CODE_128", "DATA_MATRIX", "EAN_8", "EAN_13", "ITF",
        "MAXICODE", "PDF_417", "QR_CODE", "RSS_14", "RSS_EXPANDED", "UPC_A", "UPC_E", "UPC_EAN_EXTENSION",
    ]

    /// The zip entry names Catima's importer accepts.
    static func checkEntries(_ names: [String]) throws {
        for name in names {
            let last = name.split(separator: "/").last.map(String.init) ?? name
            if last == "catima.csv" { continue }
            if last.hasSuffix(".png") {
                let parts = last.dropLast(4).split(separator: "_", omittingEmptySubsequences: false)
                guard parts.count == 3, parts[0] == "card", !parts[1].isEmpty,
                    parts[1].allSatisfy({ $0.isASCII && $0.isNumber }),
                    ["front", "back", "icon"].contains(parts[2])
                else { throw Failure(description: "Unexpected PNG file in import: \(last)") }
                continue
            }
            throw Failure(description: "Unexpected file in import: \(last)")
        }
    }

    /// `importCSV`: the cards, groups and links Catima would store.
    static func importCSV(_ bytes: [UInt8]) throws -> Imported {
        let text = String(decoding: bytes, as: UTF8.self)
        switch parseVersion(text) {
        case 1: return Imported(cards: try parseCards(Array(text.unicodeScalars)))
        case 2: return try parseV2(text)
        case let version: throw Failure(description: "No code to parse version \(version)")
        }
    }

    static func parseVersion(_ text: String) -> Int {
        var digits = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace { break }
            guard ("0"..."9").contains(scalar), digits.count < 5 else { return 1 }
            digits.unicodeScalars.append(scalar)
        }
        return Int(digits) ?? 1
    }

    /// `BufferedReader.readLine` over the whole text.
    static func readLines(_ text: String) -> [String] {
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        var previousWasCR = false
        var pending = false
        for scalar in text.unicodeScalars {
            if scalar == "\n", previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = scalar == "\r"
            if scalar == "\r" || scalar == "\n" {
                lines.append(String(current))
                current = String.UnicodeScalarView()
                pending = false
            } else {
                current.append(scalar)
                pending = true
            }
        }
        if pending { lines.append(String(current)) }
        return lines
    }

    static func parseV2(_ text: String) throws -> Imported {
        var imported = Imported()
        var part = 0
        var stringPart = ""
        var lines = readLines(text).map(Optional.some)
        lines.append(nil)
        for line in lines {
            if line == nil || line?.isEmpty == true {
                var parsed = false
                switch part {
                case 0:
                    parsed = true
                case 1:
                    if let groups = try unlessFormatException({ try parseTable(stringPart) }) {
                        imported.groups = try groups.records.map { record in
                            guard let id = try groups.value("_id", record) else {
                                throw Failure(description: "Group has no ID")
                            }
                            return id
                        }
                        parsed = true
                    }
                case 2:
                    if let cards = try unlessFormatException({
                        try parseCards(Array(stringPart.unicodeScalars))
                    }) {
                        imported.cards = cards
                        parsed = true
                    }
                case 3:
                    if let table = try unlessFormatException({ try parseTable(stringPart) }) {
                        imported.cardGroups = try table.records.map { record in
                            guard let card = try table.value("cardId", record).flatMap({ Int32($0) }),
                                let group = try table.value("groupId", record)
                            else { throw Failure(description: "Group has no ID") }
                            return (card, group)
                        }
                        parsed = true
                    }
                default:
                    throw Failure(description: "Issue parsing CSV data, too many parts for v2 parsing")
                }
                guard let line else { break }
                if parsed {
                    part += 1
                    stringPart = ""
                } else {
                    stringPart += line + "\n"
                }
            } else if let line {
                stringPart += line + "\n"
            }
        }
        return imported
    }

    /// A parsed table: its header and records (Commons CSV with `setHeader()`).
    struct Table {
        var header: [String: Int]
        var records: [[String]]

        /// `CSVRecord.get(name)` after `isMapped`: `nil` when the column is absent; throws (as Commons
        /// CSV's IllegalArgumentException) when the record is shorter than the header.
        func value(_ name: String, _ record: [String]) throws -> String? {
            guard let index = header[name] else { return nil }
            guard index < record.count else {
                throw Crash(
                    description:
                        "Index for header '\(name)' is \(index) but CSVRecord only has \(record.count) values"
                )
            }
            return record[index]
        }
    }

    /// Commons CSV, RFC 4180 format: empty lines are records of one empty value (`ignoreEmptyLines`
    /// false), but an empty input has none; a quoted field may span lines; a character between a closing
    /// quote and the delimiter, or the end inside quotes, throws (an IOException inside the parser,
    /// surfaced as IllegalStateException: a `FormatException` to the importer).
    static func parseTable(_ text: String) throws -> Table {
        let scalars = Array(text.unicodeScalars)
        var records: [[String]] = []
        var index = 0
        while index < scalars.count {
            var record: [String] = []
            var field = String.UnicodeScalarView()
            recordLoop: while true {
                if index < scalars.count, scalars[index] == "\"" {
                    index += 1
                    while true {
                        guard index < scalars.count else {
                            throw Failure(description: "EOF reached before encapsulated token finished")
                        }
                        let scalar = scalars[index]
                        index += 1
                        if scalar == "\"" {
                            if index < scalars.count, scalars[index] == "\"" {
                                field.append("\"")
                                index += 1
                                continue
                            }
                            break
                        }
                        field.append(scalar)
                    }
                    if index < scalars.count, !",\r\n".unicodeScalars.contains(scalars[index]) {
                        throw Failure(description: "invalid char between encapsulated token and delimiter")
                    }
                } else {
                    while index < scalars.count, !",\r\n".unicodeScalars.contains(scalars[index]) {
                        field.append(scalars[index])
                        index += 1
                    }
                }
                record.append(String(field))
                field = String.UnicodeScalarView()
                if index < scalars.count, scalars[index] == "," {
                    index += 1
                    continue recordLoop
                }
                if index < scalars.count, scalars[index] == "\r" { index += 1 }
                if index < scalars.count, scalars[index] == "\n" { index += 1 }
                break
            }
            records.append(record)
        }
        guard let header = records.first else { return Table(header: [:], records: []) }
        var columns: [String: Int] = [:]
        for (position, name) in header.enumerated() where columns[name] == nil { columns[name] = position }
        return Table(header: columns, records: Array(records.dropFirst()))
    }

    /// `parseV1` / `parseV2Cards`: every record through `importLoyaltyCard`.
    static func parseCards(_ scalars: [Unicode.Scalar]) throws -> [Card] {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        let table = try parseTable(text)
        return try table.records.map { try importLoyaltyCard(table, $0) }
    }

    static func importLoyaltyCard(_ table: Table, _ record: [String]) throws -> Card {
        func int(_ name: String) throws -> Int32 {
            guard let value = try table.value(name, record) else {
                throw Failure(description: "Field not used but expected: \(name)")
            }
            guard !value.isEmpty else { throw Failure(description: "Field is empty: \(name)") }
            guard let number = Int32(value) else {
                throw Failure(description: "Failed to parse field: \(name)")
            }
            return number
        }
        let id = try int("_id")
        let store = try table.value("store", record) ?? ""
        guard !store.isEmpty else { throw Failure(description: "No store listed, but is required") }
        let note = try table.value("note", record) ?? ""
        let balanceType = try table.value("balancetype", record) ?? ""
        if !balanceType.isEmpty,
            !(balanceType.count == 3 && balanceType.allSatisfy { $0.isASCII && $0.isUppercase })
        {
            throw Crash(description: "Currency.getInstance: not an ISO 4217 code")
        }
        let cardID = try table.value("cardid", record) ?? ""
        guard !cardID.isEmpty else { throw Failure(description: "No card ID listed, but is required") }
        let barcodeID = try table.value("barcodeid", record) ?? ""
        let barcodeType = try table.value("barcodetype", record) ?? ""
        if !barcodeType.isEmpty, !zxingFormats.contains(barcodeType) {
            throw Crash(description: "No enum constant com.google.zxing.BarcodeFormat.\(barcodeType)")
        }
        let headerColor = try unlessFormatException { try int("headercolor") }
        let star = try unlessFormatException { try int("starstatus") } ?? 0
        // Charset.forName: an unknown name throws (UnsupportedCharsetException), uncaught.
        let encodingName = try table.value("barcodeencoding", record) ?? ""
        var encoding: String?
        if !encodingName.isEmpty {
            guard let canonical = CatimaLinkModel.charsets[encodingName.lowercased()] else {
                throw Crash(description: "UnsupportedCharsetException: \(encodingName)")
            }
            encoding = canonical
        }
        return Card(
            id: id, store: store, note: note, cardID: cardID, barcodeID: barcodeID.isEmpty ? nil : barcodeID,
            barcodeType: barcodeType.isEmpty ? nil : barcodeType, headerColor: headerColor,
            starStatus: star == 1 ? 1 : 0, barcodeEncoding: encoding)
    }
}
