import CampusFeature
import CardFeature
import Codabar
import Console
import Foundation
import GymcardCore
import Imaging
import Scanner
import Storage
import Symbologies
import Symbols
import Synchronization
import TestSupport
import Testing

/// What `show` and `render` compute, in-process: the symbol from an ID, its files, a batch of them.
@Suite struct SymbolRenderingTests {
    @Test func aPNGWrittenToAPathScansBackToTheNormalizedID() async throws {
        let directory = try TemporaryDirectory()
        let symbol = try CardSymbol.symbol(for: "9051-23456", checkCharacter: false) { _ in }
        try NamedOutput.write(
            SymbolFile.png.bytes(of: symbol, style: try BarcodeStyle()), to: directory.path + "/card.png")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: directory.path + "/card.png")))
        let report = try await OffThePool.compute {
            BarcodeScanner().scan(try ImageFile.decodeGray(bytes))
        }
        #expect(report.findings.first?.text == "A905123456B")
        let svg = try SymbolFile.svg.bytes(of: symbol, style: try BarcodeStyle())
        #expect(String(decoding: svg, as: UTF8.self).contains("<svg"))
    }

    @Test func aPathThatCannotBeWrittenIsAProblemNamingIt() throws {
        let directory = try TemporaryDirectory()
        let symbol = try CodabarSymbol(normalizing: "905123456")
        #expect {
            try NamedOutput.write(
                SymbolFile.png.bytes(of: symbol, style: try BarcodeStyle()),
                to: directory.path + "/missing/card.png")
        } throws: { error in
            guard let problem = error as? NamedOutputProblem, !problem.standardOutput else { return false }
            return "\(error)".hasPrefix("cannot write " + directory.path + "/missing/card.png")
        }
    }

    @Test func aMistypedVirginiaTechIDIsUsedAsTypedWithAWarning() throws {
        let said = Mutex<[String]>([])
        let symbol = try CardSymbol.symbol(for: "9051-2345", checkCharacter: true) { line in
            said.withLock { $0.append(line) }
        }
        // Used as typed, with the check character asked for before the stop letter.
        #expect(symbol.text.hasPrefix("A9051-2345") && symbol.text != "A9051-2345B")
        #expect(said.withLock { $0.count } == 1)
        #expect(throws: InvalidID.self) { try CardSymbol.symbol(for: "90512345%", warn: { _ in }) }
        // One character between the letters: drawn, with a warning that readers will not take it.
        var warnings: [String] = []
        #expect(try CardSymbol.symbol(for: "7", warn: { warnings.append($0) }).text == "A7B")
        #expect(warnings.count == 1 && warnings[0].contains("single character"))
        _ = try CardSymbol.symbol(for: "77", warn: { warnings.append($0) })
        _ = try CardSymbol.symbol(for: "7", checkCharacter: true, warn: { warnings.append($0) })
        #expect(warnings.count == 1)
    }

    /// A batch: one file per distinct symbol, a bad line reported with its number and skipped.
    @Test func aBatchWritesOneFilePerSymbolAndReportsBadLines() throws {
        let directory = try TemporaryDirectory()
        let list = directory.path + "/ids.txt"
        try "# members\n905123456\n9051-23456\n\nA12%B\n111111111\n".write(
            toFile: list, atomically: true, encoding: .utf8)
        let destination = try BatchDestination(directory: directory.path + "/out/png")
        defer { destination.finish() }
        var invalid: [Int] = []
        var messages: [String] = []
        #expect {
            try BatchRender(format: .png, style: try BarcodeStyle(), checkCharacter: false).run(
                try LineReader(path: list), source: "ids.txt", into: destination, stopSignal: { 0 },
                warn: { _ in }
            ) { event in
                if case .invalid(let line, _) = event { invalid.append(line) }
                if let message = event.message(source: "ids.txt") { messages.append(message) }
            }
        } throws: { error in
            "\(error)" == "1 of 4 lines failed; 2 files written to \(directory.path)/out/png"
        }
        #expect(invalid == [5])
        #expect(
            messages.count == 1 && messages[0].hasPrefix("ids.txt:5: ")
                && messages[0].hasSuffix("; line skipped"))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path + "/out/png").sorted()
        #expect(names == ["A111111111B.png", "A905123456B.png"])
    }

    @Test func aBinaryFileStopsTheBatchAndASignalStopsItBetweenChunks() throws {
        let directory = try TemporaryDirectory()
        let binary = directory.path + "/photo.jpg"
        try Data([0xFF, 0xD8, 0, 10, 0, 0, 10, 0xFF, 0, 10, 0, 10]).write(to: URL(fileURLWithPath: binary))
        let destination = try BatchDestination(directory: directory.path + "/out")
        let render = BatchRender(format: .svg, style: try BarcodeStyle(), checkCharacter: false)
        #expect {
            try render.run(
                try LineReader(path: binary), source: "photo.jpg", into: destination, stopSignal: { 0 },
                warn: { _ in }, event: { _ in })
        } throws: { error in
            guard case .binary(_, line: 3, _) = error as? BatchProblem else { return false }
            return true
        }
        let list = directory.path + "/ids.txt"
        try "905123456\n".write(toFile: list, atomically: true, encoding: .utf8)
        #expect {
            try render.run(
                try LineReader(path: list), source: "ids.txt", into: destination, stopSignal: { SIGINT },
                warn: { _ in }, event: { _ in })
        } throws: { error in
            guard case .interrupted(signal: SIGINT, written: "no files written") = error as? BatchProblem
            else {
                return false
            }
            return true
        }
        destination.finish()
        // The directory made for the batch is removed again: nothing was written into it.
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/out"))
    }

    @Test func aPhotoThatIsMissingEmptyOrReadableGivesItsKindOfOutcome() throws {
        let directory = try TemporaryDirectory()
        try Data().write(to: URL(fileURLWithPath: directory.path + "/empty.jpg"))
        let scanner = BarcodeScanner()
        for (name, expected) in [
            ("missing.jpg", PhotoScanProblem.Kind.unreadable), ("empty.jpg", .undecodable),
        ] {
            #expect {
                try PhotoScan.scan(directory.path + "/" + name, name: name, with: scanner, all: false)
            } throws: { error in
                (error as? PhotoScanProblem)?.kind == expected
            }
        }
        let sample = #filePath.replacingOccurrences(
            of: "Tests/GymcardCoreTests/SymbolRenderingTests.swift", with: "samples/card-rotated.jpg")
        let photo = try PhotoScan.scan(sample, name: "card-rotated.jpg", with: scanner, all: false)
        #expect(photo.reads.map(\.content.text) == ["C12-345:678/90D"])
        // What scan prints of it: the ID; with several photos its name first; as a JSON line.
        let plain = PhotoScan.Output(json: false, all: false, namesPhotos: false)
        #expect(plain.lines(photo, of: "card-rotated.jpg") == ["C12-345:678/90D"])
        #expect(plain.failureLine(of: "x.jpg", message: "no barcode found", status: 1) == nil)
        let named = PhotoScan.Output(json: false, all: true, namesPhotos: true)
        #expect(named.lines(photo, of: "a\u{1B}.jpg") == ["a\\e.jpg: C12-345:678/90D"])
        let json = PhotoScan.Output(json: true, all: false, namesPhotos: true)
        let line = try #require(json.lines(photo, of: "card-rotated.jpg").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["id"] as? String == "C12-345:678/90D" && object["symbology"] as? String == "codabar")
        #expect(object["file"] as? String == "card-rotated.jpg" && object["stage"] is String)
        #expect(
            json.failureLine(of: "x.jpg", message: "no barcode found", status: 1)
                == #"{"error":"no barcode found","file":"x.jpg","status":1}"#)
    }
}
