import CardFeature
import Foundation
import GymcardCore
import Imaging
import Scanner
import Symbologies
import Symbols
import TestSupport
import Testing

/// The card you draw is the card every reader reads (issue 38): for every symbology, over the space of
/// texts and image settings it takes (``CardSpace``), the PNG and the SVG that `show` writes read back with
/// `gymcard scan` (in process, the command's own use case) to the exact text and symbology, and with the
/// independent readers (zxing-cpp 3.x from PyPI, zbarimg where libzbar reads the symbology) to the same
/// text, but for the differences ``ReaderDifference`` names. The SVG is rasterized by librsvg
/// (`rsvg-convert`) and is pixel for pixel the PNG wherever its coordinates are whole pixels (then the PNG's
/// reads are its reads); the others are read themselves. A text gymcard cannot draw is refused with the
/// reason, never drawn in silence.
@Suite("Every card, every reader: PNG and SVG over the generated space")
struct FileRoundTripTests {
    /// A drawn file and what it must read as.
    struct Drawn: Sendable {
        var card: DrawnCard
        var content: BarcodeContent
        var output: SymbolFile
        /// The PNG read (the SVG's rasterization for an SVG).
        var path: String
    }

    static let tools =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert")
        && IndependentReaders.hasZXingCpp
        && IndependentReaders.hasZbarimg

    @Test(
        "every generated card drawn as PNG and SVG reads back exactly with gymcard scan, zxing-cpp and zbarimg",
        .enabled(if: Prerequisite.runs(tools)), arguments: CardSpace.symbologies)
    func readsBack(_ symbology: Symbology) async throws {
        // GYMCARD_ROUNDTRIP_KEEP=DIR keeps the files there, to look at a failing case (Benchmarks/roundtrip.sh).
        let directory = try TemporaryDirectory()
        let folder =
            ProcessInfo.processInfo.environment["GYMCARD_ROUNDTRIP_KEEP"].map { $0 + "/" + symbology.name }
            ?? directory.path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Drawn off the concurrency pool: 160 files of zint and PNG work, in 13 cases at once, held both
        // of its threads for minutes, and the tmux suites' views (60 s) closed before a capture came.
        let (drawn, refused) = try await OffThePool.compute { () throws -> ([Drawn], [String]) in
            try Self.draw(symbology, into: folder)
        }
        try await Self.rasterizeSVGs(drawn.filter { $0.output == .svg })
        // An SVG whose rasterization is its PNG pixel for pixel reads as the PNG does (every reader is a
        // function of the pixels): it is proven by the PNG's reads, and only the others are read again.
        let compared = try await OffThePool.compute { () throws -> [(Drawn, same: Bool, problem: String?)] in
            try drawn.map { file in
                guard file.output == .svg else { return (file, false, nil) }
                let result = try Self.samePixels(file, asPNG: folder + "/\(file.card.index).png")
                return (file, result.same, result.problem)
            }
        }
        for case (_, _, let problem?) in compared { Issue.record(Comment(rawValue: problem)) }
        let read = compared.filter { !$0.same }.map(\.0)
        // Only a 2D text too long for its symbol may be refused, with libzint's reason.
        for refusal in refused {
            #expect(
                symbology.isTwoDimensional && refusal.contains("too long"), "refused: \(refusal)")
        }
        #expect(drawn.count >= CardSpace.perSymbology * 2 * 9 / 10, "drawn \(drawn.count)")

        try await Self.expectGymcardReads(read)
        try await Self.expectIndependentReads(read, symbology: symbology)
    }

    /// Draws every card of `symbology`'s space as PNG and SVG into `folder`: the files, and the cards
    /// gymcard refused to draw, with its reason.
    static func draw(_ symbology: Symbology, into folder: String) throws -> ([Drawn], [String]) {
        var drawn: [Drawn] = []
        var refused: [String] = []
        for card in CardSpace.cards(symbology) {
            let content = try card.content()
            // What gymcard says will not scan (a one-character Codabar ID: SaidNotToScanTests) is said, not
            // checked for a read.
            if card.isSaidNotToScan { continue }
            let style = try SymbolSettings(
                narrowBarWidth: card.settings.scale, barHeight: card.settings.height,
                ratio: card.settings.ratio,
                showsText: card.settings.showsText, checkCharacter: card.settings.checkCharacter
            ).style()
            for output in [SymbolFile.png, .svg] {
                let bytes: [UInt8]
                do { bytes = try output.bytes(of: content, style: style) } catch {
                    refused.append("\(card): \(error)")
                    continue
                }
                let file = folder + "/\(card.index).\(output.rawValue)"
                try Data(bytes).write(to: URL(fileURLWithPath: file))
                drawn.append(
                    Drawn(
                        card: card, content: content, output: output,
                        path: output == .svg ? file + ".png" : file))
            }
        }
        return (drawn, refused)
    }

    /// Cards of `Benchmarks/roundtrip.sh 300 20261129` that read as two IDs: the whole, and from a crop the
    /// locator cut through the symbol, its first digits (`13504382` and `135043`; ARCHITECTURE §5).
    static let cardsCutByACrop = CardSpace.cards(.itf, seed: 20_261_129, count: 300).filter {
        [40, 80, 109, 196, 214].contains($0.index)
    }

    @Test(
        "an Interleaved 2 of 5 cut by a crop around the part the locator found is not read as its first digits",
        arguments: cardsCutByACrop)
    func cutByACrop(_ card: DrawnCard) throws {
        let style = try SymbolSettings(
            narrowBarWidth: card.settings.scale, barHeight: card.settings.height, ratio: card.settings.ratio,
            showsText: card.settings.showsText, checkCharacter: card.settings.checkCharacter
        ).style()
        let directory = try TemporaryDirectory()
        let file = directory.path + "/card.png"
        try Data(try SymbolFile.png.bytes(of: try card.content(), style: style))
            .write(to: URL(fileURLWithPath: file))
        let photo = try PhotoScan.scan(file, name: file, with: BarcodeScanner(), all: true)
        #expect(photo.reads.map(\.content.text) == [try card.content().text], "\(card)")
    }

    /// `rsvg-convert` each SVG to the PNG beside it, a few at a time, at the smallest zoom that puts every
    /// coordinate on a whole pixel (a Codabar ratio of 2.25 at 1 px a narrow bar has bars 2.25 px wide: at
    /// 1:1 they would be grey, read by nobody, and no rasterizer draws them otherwise).
    static func rasterizeSVGs(_ svgs: [Drawn]) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, svg) in svgs.enumerated() {
                if index >= 4 { try await group.next() }
                group.addTask {
                    let source = String(svg.path.dropLast(4))
                    let zoom = wholePixelZoom(try String(contentsOfFile: source, encoding: .utf8))
                    let result = try await ChildProcess.run(
                        "/usr/bin/rsvg-convert", ["--zoom=\(zoom)", source, "-o", svg.path])
                    #expect(result.status == 0, "rsvg-convert \(svg.card): \(result.stderrText)")
                }
            }
            try await group.waitForAll()
        }
    }

    /// The smallest of 1, 2, 4 and 8 that makes every coordinate in `svg` whole (the XML and SVG version
    /// numbers left out).
    static func wholePixelZoom(_ svg: String) -> Int {
        let drawing = svg.split(separator: "\n").filter { !$0.contains("version=") }.joined(separator: "\n")
        let numbers = drawing.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }
        return [1, 2, 4, 8].first { zoom in
            numbers.allSatisfy { ($0 * Double(zoom)).rounded() == $0 * Double(zoom) }
        } ?? 8
    }

    /// The SVG's rasterization is the PNG's pixels where the SVG's coordinates are whole pixels (a Codabar
    /// ratio such as 2.25 puts bar edges inside pixels in the SVG, which the PNG rounds). Whether the two
    /// are the same pixels, every one of them the same byte; and what differs where they should not.
    static func samePixels(_ svg: Drawn, asPNG png: String) throws -> (same: Bool, problem: String?) {
        let source = try String(contentsOfFile: String(svg.path.dropLast(4)), encoding: .utf8)
        guard wholePixelZoom(source) == 1, FileManager.default.fileExists(atPath: png) else {
            return (false, nil)
        }
        let ours = try PNGCodec.decodeGray([UInt8](try Data(contentsOf: URL(fileURLWithPath: png))))
        let theirs = try PNGCodec.decodeGray([UInt8](try Data(contentsOf: URL(fileURLWithPath: svg.path))))
        guard ours.width == theirs.width, ours.height == theirs.height else {
            return (
                false,
                "\(svg.card): the SVG is \(theirs.width)×\(theirs.height), the PNG \(ours.width)×\(ours.height)"
            )
        }
        let differing = zip(ours.pixels, theirs.pixels).filter { ($0 < 128) != ($1 < 128) }.count
        return (
            ours.pixels == theirs.pixels,
            differing == 0 ? nil : "\(svg.card): \(differing) pixels differ between the SVG and the PNG"
        )
    }

    /// `gymcard scan`'s use case reads each file as exactly its card: one ID, the same symbology, the same
    /// Unicode scalars (a composed and a decomposed é are equal Swift strings, not equal bytes).
    static func expectGymcardReads(_ drawn: [Drawn]) async throws {
        try await withThrowingTaskGroup(of: (Drawn, String?).self) { group in
            for (index, file) in drawn.enumerated() {
                if index >= 2 { if let (done, problem) = try await group.next() { report(done, problem) } }
                group.addTask {
                    await OffThePool.compute { () -> (Drawn, String?) in
                        do {
                            let photo = try PhotoScan.scan(
                                file.path, name: file.path, with: BarcodeScanner(), all: false)
                            let cards = photo.reads.map(\.content)
                            guard cards.count == 1, let read = cards.first else {
                                return (file, "read \(cards.count) IDs")
                            }
                            if read.symbology != file.content.symbology {
                                return (file, "read as \(read.symbology.name)")
                            }
                            if Array(read.text.unicodeScalars) != Array(file.content.text.unicodeScalars) {
                                return (file, "read as '\(read.text)'")
                            }
                            return (file, nil)
                        } catch {
                            return (file, "\(error)")
                        }
                    }
                }
            }
            for try await (done, problem) in group { report(done, problem) }
        }
        func report(_ file: Drawn, _ problem: String?) {
            guard let problem else { return }
            Issue.record("gymcard scan, \(file.output.rawValue) of \(file.card): \(problem)")
        }
    }

    static func expectIndependentReads(_ drawn: [Drawn], symbology: Symbology) async throws {
        let zxing = try await IndependentReaders.zxingCpp(drawn.map(\.path))
        for file in drawn where ReaderDifference.zxingReads(file.content) {
            let reads = zxing[file.path] ?? []
            let agrees = reads.contains {
                ReaderDifference.zxingAgrees(format: $0.format, text: $0.text, with: file.content)
            }
            #expect(
                agrees,
                "zxing-cpp, \(file.output.rawValue) of \(file.card): \(reads.map { "\($0.format) '\($0.text)'" })"
            )
        }
        guard symbology.zbarName != nil else { return }
        for file in drawn
        where ReaderDifference.zbarReads(file.content, moduleWidth: file.card.settings.scale) {
            let reads = try await IndependentReaders.zbarimg(
                file.path, options: ReaderDifference.zbarOptions(symbology))
            #expect(
                reads.contains { Array($0.unicodeScalars) == Array(file.content.text.unicodeScalars) },
                "zbarimg, \(file.output.rawValue) of \(file.card): \(reads)")
        }
    }
}
