// Renders IDs in any symbology through the library path `render --symbology` will take (BarcodeContent,
// ModuleMatrix, MatrixRaster, libpng), for Benchmarks/render.sh until the command line is wired:
//   render-symbols SYMBOLOGY SCALE --batch FILE DIR   one PNG per line, DIR/<line>.png, rendered concurrently
//   render-symbols SYMBOLOGY SCALE --id TEXT FILE     one PNG
import Dispatch
import FoundationEssentials
import Glibc
import Imaging
import Symbologies
import Symbols
import Synchronization

func fail(_ message: String) -> Never {
    let line = Array(("render-symbols: " + message + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

func png(_ text: String, _ symbology: Symbology, _ style: BarcodeStyle) throws -> [UInt8] {
    let content = try BarcodeContent(symbology: symbology, normalizing: text)
    return try PNGCodec.encode(MatrixRaster.image(of: try ModuleMatrix(encoding: content), style: style))
}

let arguments = CommandLine.arguments
guard arguments.count == 6, let symbology = Symbology(name: arguments[1]), let scale = Int(arguments[2])
else {
    fail("usage: render-symbols SYMBOLOGY SCALE (--batch FILE DIR | --id TEXT FILE)")
}
do {
    let style = try BarcodeStyle(narrowBarWidth: scale)
    switch arguments[3] {
    case "--id":
        try Data(try png(arguments[4], symbology, style)).write(to: URL(fileURLWithPath: arguments[5]))
    case "--batch":
        let lines = String(decoding: try Data(contentsOf: URL(fileURLWithPath: arguments[4])), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        let directory = arguments[5]
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: lines.count) { index in
            do {
                try Data(try png(lines[index], symbology, style)).write(
                    to: URL(fileURLWithPath: "\(directory)/\(index + 1).png"))
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        if failures.withLock({ $0 }) > 0 { fail("\(failures.withLock { $0 }) of \(lines.count) failed") }
    default:
        fail("usage: render-symbols SYMBOLOGY SCALE (--batch FILE DIR | --id TEXT FILE)")
    }
} catch {
    fail("\(error)")
}
