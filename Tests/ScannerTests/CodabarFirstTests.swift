import Imaging
import Symbologies
import Symbols
import TestSupport
import Testing

@testable import Scanner

@Suite("Codabar first on a sheet of several symbologies")
struct CodabarFirstTests {
    /// A 900×700 white page with `content`'s symbol drawn upright at (`x`, `y`).
    static func page(_ symbols: [(BarcodeContent, x: Int, y: Int)]) throws -> GrayImage {
        var page = GrayImage(width: 900, height: 700)
        for (content, x, y) in symbols {
            let symbol = MatrixRaster.image(
                of: try ModuleMatrix(encoding: content),
                style: try BarcodeStyle(narrowBarWidth: 3, barHeight: 60)
            ).grayImage
            for row in 0..<symbol.height {
                for column in 0..<symbol.width { page[x + column, y + row] = symbol[column, row] }
            }
        }
        return page
    }

    @Test("beside an EAN-13 that reads at once, a Codabar turned 40° (read only once located) is the card")
    func codabarBesideAnotherSymbology() async throws {
        let ean = try BarcodeContent(symbology: .ean13, normalizing: "4006381333931")
        let codabar = try BarcodeContent(symbology: .codabar, normalizing: "A905123456B")
        var photo = try Self.page([(ean, x: 80, y: 80)])
        let turned = try Self.page([(codabar, x: 250, y: 320)]).rotated(degrees: 40)
        for y in 0..<photo.height {
            for x in 0..<photo.width {
                let (sx, sy) = (x + (turned.width - photo.width) / 2, y + (turned.height - photo.height) / 2)
                photo[x, y] = min(photo[x, y], turned[sx, sy])
            }
        }
        let finished = photo
        let (report, all) = await OffThePool.compute {
            (BarcodeScanner().scan(finished), BarcodeScanner().scan(finished, findAll: true))
        }
        // Both are there, and the EAN reads first.
        #expect(Set(all.findings.map(\.text)) == ["A905123456B", "4006381333931"])
        #expect(report.stagesRun.first == "plain" && report.findings.contains { $0.text == "4006381333931" })
        #expect(
            report.findings.first { $0.symbology == .codabar }?.text == "A905123456B", "\(report.findings)")
    }

    @Test("a card of another symbology alone reads at once, and only the gentle opening stages look further")
    func otherSymbologyAlone() async throws {
        let ean = try BarcodeContent(symbology: .ean13, normalizing: "4006381333931")
        let photo = try Self.page([(ean, x: 150, y: 300)])
        let report = await OffThePool.compute { BarcodeScanner().scan(photo) }
        #expect(report.findings.first?.text == "4006381333931")
        #expect(report.findings.first?.stage == "plain")
        let aggressive = BarcodeScanner().stages(photo: photo, working: photo).filter(\.isAggressive).map(
            \.name)
        #expect(Set(report.stagesRun).isDisjoint(with: aggressive), "ran \(report.stagesRun)")
    }
}
