/// What typed IDs go through before any symbology looks at them, shared by Codabar and the other
/// symbologies' validation.
public enum IDText {
    /// The characters between leading and trailing white space.
    public static func trimmed(_ input: String) -> [Character] {
        let characters = Array(input)
        guard let first = characters.firstIndex(where: { !$0.isWhitespace }),
            let last = characters.lastIndex(where: { !$0.isWhitespace })
        else { return [] }
        return Array(characters[first...last])
    }

    /// ASCII a–z as A–Z; every other character as it is (no locale, no other letters).
    public static func asciiUppercased(_ character: Character) -> Character {
        guard let ascii = character.asciiValue, (97...122).contains(ascii) else { return character }
        return Character(Unicode.Scalar(ascii - 32))
    }
}
