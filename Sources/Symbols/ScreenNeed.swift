/// The shapes a card takes on a terminal, in the order they are tried.
public enum CardForm: Sendable, Equatable, CaseIterable {
    /// As printed: the bars upright, read across.
    case across
    /// Turned a quarter clockwise: the bars are rows, the start of the symbol at the top.
    case turned
    /// The companion QR code instead, when the barcode fits neither way.
    case qrCode
}

/// What one form of the card needs of a terminal, in cells.
public struct ScreenNeed: Sendable, Equatable {
    /// The form.
    public var form: CardForm
    /// Columns it needs.
    public var columns: Int
    /// Rows it needs, the text under it included.
    public var rows: Int

    /// A need.
    public init(form: CardForm, columns: Int, rows: Int) {
        self.form = form
        self.columns = columns
        self.rows = rows
    }

    /// Whether a terminal of `columns` × `rows` (`nil`: rows do not limit) holds it.
    public func isMet(columns available: Int, rows availableRows: Int?) -> Bool {
        columns <= available && rows <= (availableRows ?? rows)
    }

    /// The size it needs, naming only what a terminal of `columns` × `rows` lacks ("78 columns",
    /// "88 rows turned", "29 columns for its QR code"); both when it lacks neither.
    public func wording(columns available: Int, rows availableRows: Int?) -> String {
        let short = (columns: columns > available, rows: availableRows.map { rows > $0 } ?? false)
        var size: String
        switch short {
        case (true, false): size = "\(columns) columns"
        case (false, true): size = "\(rows) rows"
        default: size = availableRows == nil ? "\(columns) columns" : "\(columns) columns and \(rows) rows"
        }
        switch form {
        case .across: break
        case .turned: size += " turned"
        case .qrCode: size += " for its QR code"
        }
        return size
    }
}
