import CHeif
import CLibCrypto
import CSQLite
import CTIFF
import CWebP
import CZBar
import CZint
import CZip
import DynamicLoading
import Foundation
import TestSupport
import Testing

/// The toolchain's C compiler (it comes with Swift), found on PATH.
private let clang: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    .map { "\($0)/clang" }.first { FileManager.default.isExecutableFile(atPath: $0) }

/// What a command needs a library for: the table's names, the arguments, standard input, and files to write
/// first (name → bytes) in the folder the command runs in.
private struct Need: Sendable {
    var library: SystemLibrary
    var names: @Sendable () -> UnsafePointer<UnsafePointer<CChar>?>
    var arguments: [String]
    var input: String? = nil
    var files: [String: [UInt8]] = [:]
}

/// The first bytes of each image format, enough for gymcard to know it and reach for its decoder.
private let webp =
    Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [0x18, 0, 0, 0]
    + [UInt8](repeating: 0, count: 64)
private let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0] + [UInt8](repeating: 0, count: 64)
private let heic =
    [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
    + [UInt8](repeating: 0, count: 64)
/// A zip with no entries: its end-of-central-directory record alone.
private let emptyZip: [UInt8] = [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)

private let needs: [String: Need] = [
    "libzbar": Need(
        library: .zbar, names: { gymcard_zbar_function_names() },
        arguments: ["scan", GymcardProcess.packageRoot.path + "/samples/card-webcam.jpg"]),
    "libzint": Need(
        library: .zint, names: { gymcard_zint_function_names() },
        arguments: ["render", "--batch", "-", "--out", "out", "--symbology", "code128"], input: "HELLO42\n"),
    "libzip": Need(
        library: .zip, names: { gymcard_zip_function_names() }, arguments: ["import", "card.zip"],
        files: ["card.zip": emptyZip]),
    "libcrypto": Need(
        library: .libcrypto, names: { gymcard_libcrypto_function_names() },
        arguments: ["set", "--passphrase-file", "passphrase"], input: "A123456789B\n",
        files: ["passphrase": Array("a passphrase\n".utf8)]),
    "libwebp": Need(
        library: .webp, names: { gymcard_webp_function_names() }, arguments: ["scan", "card.webp"],
        files: ["card.webp": webp]),
    "libtiff": Need(
        library: .tiff, names: { gymcard_tiff_function_names() }, arguments: ["scan", "card.tif"],
        files: ["card.tif": tiff]),
    "libheif": Need(
        library: .heif, names: { gymcard_heif_function_names() }, arguments: ["scan", "card.heic"],
        files: ["card.heic": heic]),
    "libsqlite3": Need(
        library: .sqlite, names: { gymcard_sqlite_function_names() },
        arguments: ["history", "import", "h.csv"],
        files: ["h.csv": Array("facility,fetched_at,source_time,occupancy,capacity,status\n".utf8)]),
]

@Suite("A library lacking one of its functions: the command that needs it says so in one line")
struct MissingSymbolCommandTests {
    /// A stand-in for `library` made with the toolchain's clang: a shared object of its soname exporting
    /// its table's first function only, found first through LD_LIBRARY_PATH. The command must name the
    /// library and the second function, in one line, with status 69, and write nothing.
    @Test(
        "the command names the library and the function it lacks",
        .enabled(if: Prerequisite.runs(clang != nil), "clang (the Swift toolchain's) is needed"),
        arguments: needs.keys.sorted())
    func namesLibraryAndFunction(name: String) async throws {
        let need = try #require(needs[name])
        let compiler = try #require(clang)
        let folder = try TemporaryDirectory()
        let libraries = folder.path + "/lib"
        try FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: true)
        let names = need.names()
        let first = String(cString: try #require(names[0]))
        let second = String(cString: try #require(names[1]))
        let source = folder.path + "/stand-in.c"
        try Data("void *\(first)(void) { return 0; }\n".utf8).write(to: URL(fileURLWithPath: source))
        let built = try await ChildProcess.run(
            compiler,
            ["-shared", "-fPIC", "-o", libraries + "/" + need.library.soname, source],
            timeoutSeconds: 120)
        try #require(built.status == 0, "clang: \(built.stderrText)")
        for (file, bytes) in need.files {
            try Data(bytes).write(to: URL(fileURLWithPath: folder.path + "/" + file))
        }
        let home = folder.path + "/home"
        let gymcard = GymcardProcess(home: home, extra: ["LD_LIBRARY_PATH": libraries])
        let result = try await gymcard.run(
            need.arguments, input: need.input.map { Data($0.utf8) }, currentDirectory: folder.path)

        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("\(need.library.soname) has no \(second)"), "\(result.stderr)")
        #expect(result.stderr.contains("apt install \(need.library.debianPackage)"), "\(result.stderr)")
        // Nothing half-made is left: no card, no empty history, no file at all in the home.
        let written = (FileManager.default.enumerator(atPath: home)?.allObjects as? [String] ?? []).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: home + "/" + $0, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }
        #expect(written.isEmpty, "left behind: \(written)")
    }
}
