/// Catima's CSV export (`catima.csv`): the version-2 file gymcard writes for one card, and the reader of
/// versions 1 and 2.
///
/// Version 2, as Catima's `CatimaExporter` prints it with Apache Commons CSV's RFC 4180 format (CRLF after
/// every record; a field quoted only when it must be): the record `2`, an empty line, the group table
/// (`_id` and one group per line), an empty line, the card table (the 15-column header below, one card per
/// record; a note may span lines inside quotes), an empty line, the card-to-group table
/// (`cardId,groupId`). Version 1 is one card table with its header, no version record.
public enum CatimaCSV {
    /// The card table's columns, in the order Catima's exporter writes them.
    public static let cardColumns = [
        "_id", "store", "note", "validfrom", "expiry", "balance", "balancetype", "cardid", "barcodeid",
        "barcodetype", "barcodeencoding", "headercolor", "starstatus", "lastused", "archive",
    ]

    /// What a Catima CSV file holds, as far as gymcard reads it.
    public struct Contents: Sendable, Hashable {
        /// The format version: 1 (one card table) or 2 (groups, cards, links).
        public var version: Int
        /// The cards, in file order.
        public var cards: [CatimaCard]
        /// The group names (version 2).
        public var groups: [String]

        /// Contents with these cards (a share link's card, say).
        public init(version: Int, cards: [CatimaCard], groups: [String]) {
            self.version = version
            self.cards = cards
            self.groups = groups
        }

        /// The cards of the store `store` (`import --store`): the same name, else the same ignoring case
        /// and white space around it.
        public func cards(store: String) -> [CatimaCard] {
            let exact = cards.filter { $0.store == store }
            guard exact.isEmpty else { return exact }
            let wanted = Self.folded(store)
            return cards.filter { Self.folded($0.store) == wanted }
        }

        private static func folded(_ name: String) -> String {
            String(name.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()).lowercased()
        }
    }

    // MARK: Writing

    /// The version-2 `catima.csv` holding `card` (as card 1, in no group), UTF-8 with CRLF line ends.
    ///
    /// No dates, balance 0 without a currency, not starred, never used (`lastused` 0), not archived;
    /// `barcodeencoding` and `headercolor` as the card has them (empty for none).
    public static func export(_ card: CatimaCard) -> [UInt8] {
        let values = [
            "1", card.store, card.note, "", "", "0", "", card.cardID, card.barcodeID ?? "",
            card.barcodeType.catimaName, card.barcodeEncoding ?? "",
            card.headerColor.map { String($0) } ?? "", card.isStarred ? "1" : "0", "0",
            card.isArchived ? "1" : "0",
        ]
        var text = record(["2"]) + "\r\n"
        text += record(["_id"]) + "\r\n"
        text += record(cardColumns) + record(values) + "\r\n"
        text += record(["cardId", "groupId"])
        return Array(text.utf8)
    }

    /// One record and its CRLF.
    static func record(_ values: [String]) -> String {
        values.enumerated().map { quoted($1, isFirst: $0 == 0) }.joined(separator: ",") + "\r\n"
    }

    /// A field as Commons CSV's minimal quoting writes it: quoted when empty and first in its record (a
    /// lone empty field would read as an empty line), when it starts with a character up to `#`, holds a
    /// comma, quote, CR or LF, or ends with a space or control character; quotes inside are doubled.
    static func quoted(_ value: String, isFirst: Bool) -> String {
        let scalars = value.unicodeScalars
        let needsQuotes: Bool
        if let first = scalars.first, let last = scalars.last {
            needsQuotes =
                first.value <= 0x23
                || scalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
                || last.value <= 0x20
        } else {
            needsQuotes = isFirst
        }
        guard needsQuotes else { return value }
        var escaped = "\""
        for scalar in scalars {
            if scalar == "\"" { escaped += "\"" }
            escaped.unicodeScalars.append(scalar)
        }
        return escaped + "\""
    }

    // MARK: Reading

    /// Reads a Catima CSV export, version 1 or 2.
    ///
    /// Columns other than `store` and `cardid` may be missing (older Catima versions wrote fewer); unknown
    /// columns are ignored; a barcode type gymcard does not draw is kept as `.unsupported` for the caller
    /// to name. A UTF-8 byte-order mark is skipped.
    public static func read(_ bytes: [UInt8]) throws(CatimaError) -> Contents {
        let text = try decode(bytes)
        let records = try CSVRecords.parse(text)
        guard let firstIndex = records.firstIndex(where: { !$0.isBlank }) else { throw .noCards }
        let first = records[firstIndex]
        if first.fields.count == 1, let version = first.fields.first,
            !version.isEmpty, version.utf8.allSatisfy({ (0x30...0x39).contains($0) })
        {
            switch version {
            case "2": return try readVersion2(Array(records[(firstIndex + 1)...]))
            case "1": return try readCardTable(Array(records[(firstIndex + 1)...]), version: 1)
            default: throw .unsupportedVersion(version)
            }
        }
        return try readCardTable(Array(records[firstIndex...]), version: 1)
    }

    private static func decode(_ bytes: [UInt8]) throws(CatimaError) -> String {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if let text = String(validating: body, as: UTF8.self) { return text }
        var line = 1
        for lineBytes in body.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if String(validating: lineBytes, as: UTF8.self) == nil { break }
            line += 1
        }
        throw .notText(line: line)
    }

    /// Version 2: the sections after the version record are separated by empty lines (groups, cards,
    /// links), as Catima's importer splits them.
    private static func readVersion2(_ records: [CSVRecords.Record]) throws(CatimaError) -> Contents {
        var sections: [[CSVRecords.Record]] = [[]]
        for record in records {
            if record.isBlank {
                sections.append([])
            } else {
                sections[sections.count - 1].append(record)
            }
        }
        // sections[0] is what follows the version record on its own section (nothing, normally).
        guard sections.count >= 3, !sections[2].isEmpty else { throw .missingCardSection }
        let groups = sections[1].dropFirst().compactMap(\.fields.first)
        var contents = try readCardTable(sections[2], version: 2)
        contents.groups = Array(groups)
        return contents
    }

    /// A card table: its header, then one record per card.
    private static func readCardTable(_ records: [CSVRecords.Record], version: Int) throws(CatimaError)
        -> Contents
    {
        let rows = records.filter { !$0.isBlank }
        guard let header = rows.first else { throw .noCards }
        var columns: [String: Int] = [:]
        for (index, name) in header.fields.enumerated() where columns[name] == nil { columns[name] = index }
        for required in ["store", "cardid"] where columns[required] == nil {
            throw .missingColumn(required, line: header.line)
        }
        var cards: [CatimaCard] = []
        for row in rows.dropFirst() {
            guard row.fields.count == header.fields.count else {
                throw .wrongFieldCount(found: row.fields.count, expected: header.fields.count, line: row.line)
            }
            func field(_ name: String) -> String { columns[name].map { row.fields[$0] } ?? "" }
            let store = field("store")
            guard !store.isEmpty else { throw .emptyField("store", line: row.line) }
            let cardID = field("cardid")
            guard !cardID.isEmpty else { throw .emptyField("cardid", line: row.line) }
            let barcodeID = field("barcodeid")
            let encoding = field("barcodeencoding")
            // Catima's importer (importLoyaltyCard) takes a colour that is not a whole number as none.
            let color = field("headercolor")
            cards.append(
                CatimaCard(
                    store: store, note: field("note"), cardID: cardID,
                    barcodeID: barcodeID.isEmpty ? nil : barcodeID,
                    barcodeType: .init(catimaName: field("barcodetype")),
                    barcodeEncoding: encoding.isEmpty ? nil : encoding, headerColor: Int32(color),
                    isStarred: field("starstatus") == "1", isArchived: field("archive") == "1", line: row.line
                ))
        }
        guard !cards.isEmpty else { throw .noCards }
        return Contents(version: version, cards: cards, groups: [])
    }
}

/// RFC 4180 records: fields separated by commas, records by CRLF (LF or CR alone accepted), fields in
/// double quotes may hold commas, quotes (doubled) and line breaks.
enum CSVRecords {
    struct Record {
        var fields: [String]
        /// The line the record starts on, 1-based.
        var line: Int
        /// An empty line (not a record with one quoted empty field).
        var isBlank: Bool
    }

    static func parse(_ text: String) throws(CatimaError) -> [Record] {
        let scalars = Array(text.unicodeScalars)
        var records: [Record] = []
        var index = 0
        var line = 1

        /// Consumes a line end at `index` (CRLF, LF or CR); false at anything else.
        func consumeLineEnd() -> Bool {
            guard index < scalars.count else { return false }
            if scalars[index] == "\r" {
                index += 1
                if index < scalars.count, scalars[index] == "\n" { index += 1 }
            } else if scalars[index] == "\n" {
                index += 1
            } else {
                return false
            }
            line += 1
            return true
        }

        while index < scalars.count {
            let startLine = line
            if consumeLineEnd() {
                records.append(Record(fields: [], line: startLine, isBlank: true))
                continue
            }
            var fields: [String] = []
            while true {
                var field = String.UnicodeScalarView()
                if index < scalars.count, scalars[index] == "\"" {
                    let quoteLine = line
                    index += 1
                    while true {
                        guard index < scalars.count else { throw .unclosedQuote(line: quoteLine) }
                        let scalar = scalars[index]
                        index += 1
                        if scalar == "\"" {
                            guard index < scalars.count, scalars[index] == "\"" else { break }
                            index += 1
                        } else if scalar == "\n"
                            || (scalar == "\r" && (index >= scalars.count || scalars[index] != "\n"))
                        {
                            line += 1
                        }
                        field.append(scalar)
                    }
                    if index < scalars.count, scalars[index] != ",", scalars[index] != "\r",
                        scalars[index] != "\n"
                    {
                        throw .textAfterQuote(line: line)
                    }
                } else {
                    while index < scalars.count, scalars[index] != ",", scalars[index] != "\r",
                        scalars[index] != "\n"
                    {
                        field.append(scalars[index])
                        index += 1
                    }
                }
                fields.append(String(field))
                if index < scalars.count, scalars[index] == "," {
                    index += 1
                    continue
                }
                _ = consumeLineEnd()
                break
            }
            records.append(Record(fields: fields, line: startLine, isBlank: false))
        }
        return records
    }
}
