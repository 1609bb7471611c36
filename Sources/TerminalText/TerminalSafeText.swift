/// Text that gymcard did not write itself, made safe to print on a terminal.
///
/// Card labels, facility and campus names (from a web page or the config file), event titles, locations
/// and hosts (from a feed) and file names can hold characters that steer a terminal instead of showing:
/// `ESC` starts sequences that recolour text, retitle the window or move the cursor; `BEL`, `CR`,
/// backspace and line breaks move or break the layout; U+0080–U+009F are the 8-bit forms of the same
/// controls; the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) reorder what follows,
/// so that text reads other than it is. Every printer passes such text through ``terminalSafe``.
///
/// Each of those characters is written as an escape a person can read, the way GNU `ls -b` and git's
/// quoted paths do, and as bash's `$'…'` reads it: `\e`, `\a`, `\b`, `\t`, `\n`, `\v`, `\f`, `\r` by
/// name, other C0 controls and DEL as `\xHH`, the C1 controls, bidirectional controls and the Unicode line
/// and paragraph separators as `\u{HHHH}`. Nothing is dropped or replaced by `?` or U+FFFD, which would
/// hide what the text holds; the result is always one line. A backslash stays as it is: this is for
/// reading, not for reading back (`--json` is the faithful form), and a Windows path or a label with a
/// backslash should not double in every view.
extension StringProtocol {
    /// This text with every terminal control character shown as a visible escape, on one line.
    public var terminalSafe: String {
        guard unicodeScalars.contains(where: needsEscape) else { return String(self) }
        var safe = ""
        safe.unicodeScalars.reserveCapacity(unicodeScalars.count + 8)
        for scalar in unicodeScalars {
            guard needsEscape(scalar) else {
                safe.unicodeScalars.append(scalar)
                continue
            }
            safe += escaped(scalar)
        }
        return safe
    }
}

/// Whether `scalar` steers a terminal or the layout rather than showing as a character.
func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x202A...0x202E, 0x2066...0x2069: true
    case 0x2028, 0x2029: true
    default: false
    }
}

/// The visible escape for a character ``needsEscape`` chose.
func escaped(_ scalar: Unicode.Scalar) -> String {
    switch scalar.value {
    case 0x07: return "\\a"
    case 0x08: return "\\b"
    case 0x09: return "\\t"
    case 0x0A: return "\\n"
    case 0x0B: return "\\v"
    case 0x0C: return "\\f"
    case 0x0D: return "\\r"
    case 0x1B: return "\\e"
    case 0x00...0x7F: return "\\x" + hexadecimal(scalar.value, digits: 2)
    default: return "\\u{" + hexadecimal(scalar.value, digits: 4) + "}"
    }
}

/// `value` in upper-case hexadecimal, zero-padded to `digits`.
func hexadecimal(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
}
