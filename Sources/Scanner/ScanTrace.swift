import Glibc
import Imaging
import Symbologies

/// A line on standard error for every read the cascade judges, when `GYMCARD_SCAN_TRACE` is set in the
/// environment: for benchmarks that ask which check of the read guard refused a read; and one per stage
/// with the milliseconds it took (making its image and reading it) and since the scan began. It prints the text
/// read (the only place gymcard writes a decoded text to a log), so it is never on by default.
enum ScanTrace {
    /// Whether the variable is set (read once per process).
    static let isOn = getenv("GYMCARD_SCAN_TRACE") != nil

    /// Prints one read: where it came from, how the guard judged it, and what the footprint measured.
    static func record(_ read: StageRead, in image: GrayImage, trusted: Bool) {
        var line =
            "trace stage=\"\(read.stage)\" engine=\(read.engine.rawValue) aggressive=\(read.isAggressive) "
            + "quality=\(read.symbol.quality) whole=\(read.coversWholeSymbol) trusted=\(trusted) "
            + "image=\(image.width)x\(image.height) ends=\(read.symbol.lineEnds.count)"
        if let pattern = FootprintPattern(symbology: read.symbol.symbology, text: read.symbol.text) {
            if let measured = SymbolFootprint.measure(
                pattern, lineEnds: read.symbol.lineEnds, corners: read.engine == .zxing, in: image)
            {
                line +=
                    " rows=\(measured.rowsOnSymbol) agreeing=\(measured.rowsAgreeing)"
                    + " competing=\(measured.rowsCompeting) narrow=\(measured.narrow)"
                    + " others=\(measured.otherCounts) pattern=\(measured.patternCount)"
            } else {
                line += " unmeasured"
            }
        }
        line += " text=\(read.symbol.text)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }

    /// Prints how long a stage took (making its image and decoding it) and the time since the scan began.
    static func stage(_ name: String, took: Duration, since start: ContinuousClock.Instant) {
        func ms(_ duration: Duration) -> Int {
            Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
        }
        let line = "trace-stage stage=\"\(name)\" ms=\(ms(took)) total=\(ms(ContinuousClock.now - start))\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
}
