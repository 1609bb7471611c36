/// `--qr` takes an optional file name: `--qr card-qr.png` writes a PNG, a bare `--qr` draws on the terminal.
///
/// argument-parser has no optional-value options, so a bare `--qr` (last, or followed by another option)
/// is rewritten to `--qr=` before parsing; an empty value means "the terminal".
enum QROption {
    static func rewritingBareFlag(in arguments: [String]) -> [String] {
        var result: [String] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "--" {
                result += arguments[index...]
                break
            }
            let next = index + 1 < arguments.count ? arguments[index + 1] : nil
            if argument == "--qr", next == nil || (next?.hasPrefix("-") == true && next != "-") {
                result.append("--qr=")
            } else {
                result.append(argument)
            }
        }
        return result
    }
}
