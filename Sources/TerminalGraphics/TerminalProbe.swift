import Glibc

/// A size in pixels.
public struct PixelSize: Equatable, Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// What a terminal said about itself when asked.
public struct TerminalCapabilities: Equatable, Sendable {
    /// The terminal answered the device-attributes request (every real terminal does).
    public var answered = false
    /// It answered kitty's graphics query with OK.
    public var kittyGraphics = false
    /// Its primary device attributes include 4 (sixel graphics).
    public var sixel = false
    /// The text area's size in pixels (`CSI 14 t`), when it said.
    public var textAreaPixels: PixelSize?
    /// The largest sixel image it draws (xterm's XTSMGRAPHICS), when it said.
    public var sixelMaximum: PixelSize?

    /// Nothing known.
    public init() {}
}

/// Asks the terminal what it can draw: kitty's graphics query, the text area's pixel size, the largest
/// sixel image and then the primary device attributes (DA1). Every terminal answers DA1, and answers in
/// order, so its reply ends the probe; a terminal that answers nothing costs the timeout (about 100 ms),
/// never a stall.
public enum TerminalProbe {
    /// The default bound on the wait for answers.
    public static let defaultTimeoutMilliseconds = 100

    /// The queries, in order. Inside tmux the graphics queries go to the terminal outside (wrapped for
    /// pass-through); DA1 is answered by tmux itself and so is sent as is.
    public static func queries(throughTmux: Bool) -> String {
        let outer = [KittyGraphics.query, "\u{1B}[14t", "\u{1B}[?2;1S"]
        let sent = throughTmux ? outer.map(TmuxPassthrough.wrap) : outer
        return sent.joined() + "\u{1B}[c"
    }

    /// Writes the queries to `descriptor` (a terminal in non-canonical mode without echo) and reads the
    /// answers until DA1 arrives or `timeoutMilliseconds` pass.
    public static func probe(
        descriptor: Int32, throughTmux: Bool, timeoutMilliseconds: Int = defaultTimeoutMilliseconds
    ) -> TerminalCapabilities {
        let request = Array(queries(throughTmux: throughTmux).utf8)
        var written = 0
        while written < request.count {
            let count = request[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return TerminalCapabilities() }
            written += count
        }
        var received: [UInt8] = []
        let deadline = monotonicMilliseconds() + timeoutMilliseconds
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let remaining = deadline - monotonicMilliseconds()
            guard remaining > 0 else { break }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, Int32(remaining))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { break }
            received += buffer[..<count]
            if parse(received).answered { break }
        }
        return parse(received)
    }

    /// What the answers in `bytes` say. Unknown sequences and typed keys in between are skipped.
    public static func parse(_ bytes: [UInt8]) -> TerminalCapabilities {
        var result = TerminalCapabilities()
        var index = 0
        while index < bytes.count {
            guard bytes[index] == 0x1B, index + 1 < bytes.count else {
                index += 1
                continue
            }
            if bytes[index + 1] == UInt8(ascii: "_") {
                // APC: ESC _ G … ESC \
                var end = index + 2
                while end + 1 < bytes.count, !(bytes[end] == 0x1B && bytes[end + 1] == UInt8(ascii: "\\")) {
                    end += 1
                }
                let body = String(decoding: bytes[(index + 2)..<min(end, bytes.count)], as: UTF8.self)
                if body.hasPrefix("G"), body.contains("i=31"), body.hasSuffix(";OK") {
                    result.kittyGraphics = true
                }
                index = end + 2
                continue
            }
            guard bytes[index + 1] == UInt8(ascii: "[") else {
                index += 2
                continue
            }
            // CSI: parameters and intermediates up to a final byte in 0x40…0x7E.
            var end = index + 2
            while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
            guard end < bytes.count else { break }
            let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
            let final = bytes[end]
            index = end + 1
            if final == UInt8(ascii: "c"), parameters.hasPrefix("?") {
                result.answered = true
                result.sixel = numbers(parameters.dropFirst()).contains(4)
            } else if final == UInt8(ascii: "t") {
                let values = numbers(Substring(parameters))
                if values.count == 3, values[0] == 4, values[1] > 0, values[2] > 0 {
                    result.textAreaPixels = PixelSize(width: values[2], height: values[1])
                }
            } else if final == UInt8(ascii: "S"), parameters.hasPrefix("?") {
                let values = numbers(parameters.dropFirst())
                // Item 2 (sixel geometry), status 0 (success), width, height.
                if values.count == 4, values[0] == 2, values[1] == 0, values[2] > 0, values[3] > 0 {
                    result.sixelMaximum = PixelSize(width: values[2], height: values[3])
                }
            }
        }
        return result
    }

    private static func numbers(_ text: Substring) -> [Int] {
        text.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
    }

    private static func monotonicMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}

extension TerminalProbe {
    /// Whether `bytes` hold only answers to the probe's queries (a terminal that answered late), so that
    /// they are not taken for a key press.
    public static func isOnlyAnswers(_ bytes: [UInt8]) -> Bool {
        guard bytes.first == 0x1B else { return false }
        let text = String(decoding: bytes, as: UTF8.self)
        var rest = Substring(text)
        while !rest.isEmpty {
            if rest.hasPrefix("\u{1B}_G") {
                let scalars = Array(rest.unicodeScalars)
                guard
                    let end = scalars.indices.dropFirst(3).first(where: {
                        scalars[$0 - 1] == "\u{1B}" && scalars[$0] == "\\"
                    })
                else { return false }
                rest = Substring(String(String.UnicodeScalarView(scalars[(end + 1)...])))
            } else if rest.hasPrefix("\u{1B}[") {
                let body = rest.dropFirst(2)
                guard
                    let final = body.firstIndex(where: {
                        ($0.asciiValue ?? 0) >= 0x40 && ($0.asciiValue ?? 0) <= 0x7E
                    })
                else { return false }
                let parameters = body[..<final]
                switch body[final] {
                case "c", "S": guard parameters.hasPrefix("?") else { return false }
                case "t": guard parameters.hasPrefix("4;") else { return false }
                default: return false
                }
                rest = body[body.index(after: final)...]
            } else {
                return false
            }
        }
        return true
    }
}
