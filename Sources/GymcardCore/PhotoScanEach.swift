import Scanner
import Symbologies

extension PhotoScan {
    /// `scan` over several photos, in order: each is scanned as ``scan(_:name:with:all:)`` scans it and its
    /// lines go to `print` as `output` words them (`-` is standard input, called so in messages). `save`
    /// gets the best ID of each photo that reads until one is stored without an error (`scan --save`
    /// stores the first). `failed` gets each photo whose scan or storing failed, by its name in messages,
    /// and throws to stop at it.
    ///
    /// - Throws: ``PhotoScanProblem`` before any photo is read when libzbar is not installed (every photo
    ///   would read as "no barcode found"); what `failed` throws.
    public static func scanEach(
        _ paths: [String], with scanner: BarcodeScanner, output: Output,
        save: ((BarcodeContent) throws -> Void)?, print: (String) -> Void,
        failed: (_ name: String, _ error: any Error) throws -> Void
    ) throws {
        guard ZBarReader.isAvailable else {
            throw PhotoScanProblem(
                message:
                    "libzbar is not installed, so photos cannot be scanned; install it (Debian: apt install libzbar0)",
                kind: .decoderMissing)
        }
        var saved = save == nil
        for path in paths {
            let name = path == "-" ? "standard input" : path
            do {
                let photo: Reads
                do { photo = try scan(path, name: name, with: scanner, all: output.all) } catch {
                    for line in output.lines(others: error.others, of: name, milliseconds: error.milliseconds)
                    {
                        print(line)
                    }
                    throw error
                }
                for line in output.lines(photo, of: name) { print(line) }
                if !saved, let save {
                    try save(photo.reads[0].content)
                    saved = true
                }
            } catch {
                try failed(name, error)
            }
        }
    }
}
