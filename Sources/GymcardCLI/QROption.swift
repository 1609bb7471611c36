/// `--qr` takes an optional file name: `--qr card-qr.png` writes a PNG, a bare `--qr` draws on the terminal.
///
/// argument-parser has no optional-value options, so a bare `--qr` (last, or followed by another option)
/// is rewritten before parsing to the hidden flag `--qr-terminal`.
enum QROption {
    /// The hidden flag a bare `--qr` becomes.
    static let terminalFlag = "qr-terminal"

    static func rewritingBareFlag(in arguments: [String]) -> [String] {
        var result: [String] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "--" {
                result += arguments[index...]
                break
            }
            let next = index + 1 < arguments.count ? arguments[index + 1] : nil
            if argument == "--qr", next == nil || (next?.hasPrefix("-") == true && next != "-") {
                result.append("--" + terminalFlag)
            } else {
                result.append(argument)
            }
        }
        return result
    }
}
