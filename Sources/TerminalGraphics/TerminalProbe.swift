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
    /// The sixel geometry it reports now (XTSMGRAPHICS "read"): xterm answers its window's text area,
    /// clamped to the largest image it draws (ARCHITECTURE §11). When it said.
    public var sixelGeometry: PixelSize?
    /// The largest sixel image it draws (XTSMGRAPHICS "read maximum"; xterm's `maxGraphicSize`, 1000×1000
    /// unless set, and it drops a larger image without a word). When it said.
    public var sixelMaximum: PixelSize?

    /// Nothing known.
    public init() {}
}

/// Asks the terminal what it can draw: kitty's graphics query, the text area's pixel size, the sixel
/// geometry and its maximum, and then the primary device attributes (DA1). All are sent in one write and
/// read in one wait: every terminal answers DA1, and answers in order, so its reply ends the probe; a
/// terminal that answers nothing costs the timeout (about 100 ms), never a stall.
public enum TerminalProbe {
    /// The default bound on the wait for answers.
    public static let defaultTimeoutMilliseconds = 100

    /// XTSMGRAPHICS, item 2 (sixel geometry), "read": `CSI ? 2 ; 1 ; 0 S`. The third parameter is required:
    /// xterm 379 answers nothing to `CSI ? 2 ; 1 S` (ARCHITECTURE §11).
    public static let sixelGeometryQuery = "\u{1B}[?2;1;0S"
    /// XTSMGRAPHICS, item 2, "read maximum": `CSI ? 2 ; 4 ; 0 S`.
    public static let sixelMaximumQuery = "\u{1B}[?2;4;0S"

    /// The queries, in order. Inside tmux the graphics queries go to the terminal outside (wrapped for
    /// pass-through); DA1 is answered by tmux itself and so is sent as is.
    public static func queries(throughTmux: Bool) -> String {
        let outer = [KittyGraphics.query, "\u{1B}[14t", sixelGeometryQuery, sixelMaximumQuery]
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
        let deadline = ContinuousClock.now + .milliseconds(timeoutMilliseconds)
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { break }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, pollMilliseconds(remaining))
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
    public static func parse(_ bytes: [UInt8]) -> TerminalCapabilities { scan(bytes).capabilities }

    /// Whether `bytes` hold only answers to the probe's queries (a terminal that answered late), so that
    /// they are not taken for a key press.
    public static func isOnlyAnswers(_ bytes: [UInt8]) -> Bool {
        !bytes.isEmpty && !scan(bytes).hasOtherInput
    }

    /// One pass over what the terminal sent: the capabilities its answers give, and whether anything else
    /// (a key, an unknown or unfinished sequence) came with them.
    private static func scan(_ bytes: [UInt8]) -> (capabilities: TerminalCapabilities, hasOtherInput: Bool) {
        var result = TerminalCapabilities()
        var hasOtherInput = false
        // Both sixel answers look alike (`CSI ? 2 ; status ; width ; height S`); the terminal answers in
        // the order asked, so the first is the geometry and the second the maximum.
        var sixelAnswers = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == 0x1B, index + 1 < bytes.count else {
                hasOtherInput = true
                index += 1
                continue
            }
            if bytes[index + 1] == UInt8(ascii: "_") {
                // APC: ESC _ G … ESC \
                var end = index + 2
                while end + 1 < bytes.count, !(bytes[end] == 0x1B && bytes[end + 1] == UInt8(ascii: "\\")) {
                    end += 1
                }
                guard end + 1 < bytes.count else { return (result, true) }
                let body = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
                if !body.hasPrefix("G") { hasOtherInput = true }
                if body.hasPrefix("G"), body.contains("i=31"), body.hasSuffix(";OK") {
                    result.kittyGraphics = true
                }
                index = end + 2
                continue
            }
            guard bytes[index + 1] == UInt8(ascii: "[") else {
                hasOtherInput = true
                index += 2
                continue
            }
            // CSI: parameters and intermediates up to a final byte in 0x40…0x7E.
            var end = index + 2
            while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
            guard end < bytes.count else { return (result, true) }
            let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
            let final = bytes[end]
            index = end + 1
            if final == UInt8(ascii: "c"), parameters.hasPrefix("?") {
                result.answered = true
                result.sixel = numbers(parameters.dropFirst()).contains(4)
            } else if final == UInt8(ascii: "t"), parameters.hasPrefix("4;") {
                let values = numbers(Substring(parameters))
                if values.count == 3, values[1] > 0, values[2] > 0 {
                    result.textAreaPixels = PixelSize(width: values[2], height: values[1])
                }
            } else if final == UInt8(ascii: "S"), parameters.hasPrefix("?") {
                let values = numbers(parameters.dropFirst())
                guard values.first == 2 else { continue }
                sixelAnswers += 1
                // Item 2 (sixel geometry), status 0 (success), width, height; a failure holds its place.
                guard values.count == 4, values[1] == 0, values[2] > 0, values[3] > 0 else { continue }
                let size = PixelSize(width: values[2], height: values[3])
                switch sixelAnswers {
                case 1: result.sixelGeometry = size
                case 2: result.sixelMaximum = size
                default: break
                }
            } else {
                // An arrow or function key is a CSI too: a key, not an answer.
                hasOtherInput = true
            }
        }
        return (result, hasOtherInput)
    }

    /// A wait for `poll(2)`: whole milliseconds, rounded up so the deadline is not missed by a fraction.
    public static func pollMilliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }

    private static func numbers(_ text: Substring) -> [Int] {
        text.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
    }
}
