/// The optional mod-16 check character (AIM Codabar, ARCHITECTURE §4).
///
/// Sum the values of every character, start and stop included; the check is the value that brings the
/// sum to a multiple of 16, placed just before the stop. `A37859B` becomes `A37859+B`.
extension CodabarSymbol {
    /// This symbol with a check character inserted before the stop.
    ///
    /// Throws ``CodabarError/tooLong(length:maximum:)`` when the extra character would pass the limit.
    public func addingCheckCharacter() throws(CodabarError) -> CodabarSymbol {
        let sum = characters.reduce(0) { $0 + $1.checkValue }
        let value = (16 - sum % 16) % 16
        guard let check = CodabarCharacter(checkValue: value) else {
            preconditionFailure("0-15 is a data value")
        }
        return try CodabarSymbol(
            start: characters[0], data: Array(data) + [check], stop: characters[characters.count - 1])
    }

    /// Whether the last data character is a valid check character for the rest.
    public var hasValidCheckCharacter: Bool {
        characters.count >= 4 && characters.reduce(0) { $0 + $1.checkValue } % 16 == 0
    }
}
