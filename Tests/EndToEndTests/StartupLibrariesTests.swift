import DynamicLoading
import Foundation
import TestSupport
import Testing

/// Libraries that only some commands need are opened with dlopen on first use (ARCHITECTURE §9 and §15):
/// linked, the loader would map and relocate them in every process, status bars' included.
@Suite("What every gymcard process loads")
struct StartupLibrariesTests {
    /// Every library of the registry (ARCHITECTURE §17), by its file.
    static let onFirstUse = SystemLibrary.all.map(\.soname) + [SystemLibrary.elogindBus.soname]

    @Test(
        "--version and show --png load none of the libraries only other commands need",
        arguments: [["--version"], ["show", "--id", "905123456", "--png", "card.png"]])
    func lightStart(arguments: [String]) async throws {
        let home = try TemporaryDirectory()
        // The loader names every library it initialises on stderr.
        let process = GymcardProcess(home: home.path, extra: ["LD_DEBUG": "files"])
        let result = try await process.run(arguments, currentDirectory: home.path)
        #expect(result.status == 0)
        let initialised = result.stderr.split(separator: "\n").filter { $0.contains("calling init:") }
        // The check sees what is loaded: libc always, libpng for every command that can write a PNG.
        #expect(initialised.contains { $0.contains("libc.so") })
        #expect(initialised.contains { $0.contains("libpng16") })
        for library in Self.onFirstUse {
            #expect(!initialised.contains { $0.contains(library) }, "\(library) is loaded by \(arguments)")
        }
    }

    @Test("a scan zxing-cpp reads loads libZXing in its helper process only, never in gymcard")
    func zxingInItsOwnProcess() async throws {
        let home = try TemporaryDirectory()
        let plain = GymcardProcess(home: home.path)
        let drawn = try await plain.run(
            ["show", "--id", "DM-CARD-9981", "--symbology", "datamatrix", "--png", "dm.png"],
            currentDirectory: home.path)
        #expect(drawn.status == 0, "\(drawn.stderr)")
        // The helper inherits LD_DEBUG, but its standard error is /dev/null: what is seen is gymcard's.
        let process = GymcardProcess(home: home.path, extra: ["LD_DEBUG": "files"])
        let result = try await process.run(["scan", "dm.png"], currentDirectory: home.path)
        #expect(result.status == 0)
        #expect(result.stdoutText == "DM-CARD-9981\n")
        let initialised = result.stderr.split(separator: "\n").filter { $0.contains("calling init:") }
        #expect(initialised.contains { $0.contains("libzbar") }, "libzbar read first")
        #expect(!initialised.contains { $0.contains("libZXing") })
    }
}
