// Writes the seeded card-photo corpus to a directory with a manifest, for Benchmarks/scan.sh.
//   generate-corpus DIR [PER_CATEGORY] [SEED] [CATEGORY...]   (only those categories, when named)
//   generate-corpus --samples DIR        the small photos committed in samples/
//   generate-corpus --symbol SYMBOLOGY TEXT DIR [PER_CATEGORY] [SEED] [CATEGORY...]   another symbology's card
import Foundation
import Imaging
import Symbologies
import Symbols
import TestSupport

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "--samples" {
    var generator = CardPhotoGenerator(seed: 905)
    let recipes = Dictionary(uniqueKeysWithValues: CardPhotoGenerator.fullRecipes.map { ($0.category, $0) })
    for (file, category, id) in [
        ("card-webcam", "webcam-720p", "A905123456B"), ("card-rotated", "rotated", "C12-345:678/90D"),
    ] {
        guard let recipe = recipes[category] else { continue }
        let photo = generator.photo(recipe, name: file, id: id)
        try Data(photo.bytes).write(to: URL(fileURLWithPath: arguments[2] + "/" + photo.name))
        print("wrote \(arguments[2])/\(photo.name) (\(photo.bytes.count) bytes)")
    }
    exit(0)
}
// generate-corpus --symbol SYMBOLOGY TEXT DIR [PER_CATEGORY] [SEED] [CATEGORY...]: photos of a card that
// carries TEXT in any symbology (drawn by gymcard's Symbols), for what the Codabar corpus does not cover.
if arguments.count >= 5, arguments[1] == "--symbol" {
    guard let symbology = Symbology(name: arguments[2]),
        let content = try? BarcodeContent(symbology: symbology, normalizing: arguments[3]),
        let matrix = try? ModuleMatrix(encoding: content)
    else {
        FileHandle.standardError.write(
            Data("generate-corpus: cannot draw that text in that symbology\n".utf8))
        exit(65)
    }
    let directory = arguments[4]
    let perCategory = arguments.count > 5 ? Int(arguments[5]) ?? 5 : 5
    let seed = arguments.count > 6 ? UInt64(arguments[6]) ?? 2026 : 2026
    let only = Set(arguments.dropFirst(7))
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var generator = CardPhotoGenerator(seed: seed)
    // The symbol at 8 px a module on a white card with a margin, as a printed card carries it.
    let module = 8
    let symbol = MatrixRaster.image(of: matrix, moduleSize: module)
    var card = GrayImage(width: symbol.width + 160, height: symbol.height + 160, filledWith: 242)
    for y in 0..<symbol.height { for x in 0..<symbol.width where symbol[x, y] { card[80 + x, 80 + y] = 40 } }
    var manifest = "file\tcategory\texpected\tmust_read\n"
    for recipe in CardPhotoGenerator.fullRecipes
    where recipe.hasBarcode && !recipe.label && (only.isEmpty || only.contains(recipe.category)) {
        for index in 0..<perCategory {
            let name = "\(recipe.category)-\(index).jpg"
            let bytes = generator.photograph(card, narrowBarPixels: module, recipe: recipe)
            try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name))
            manifest += "\(name)\t\(recipe.category)\t\(content.text)\t\(recipe.mustRead)\n"
        }
    }
    try Data(manifest.utf8).write(to: URL(fileURLWithPath: directory + "/manifest.tsv"))
    exit(0)
}
guard arguments.count >= 2 else {
    FileHandle.standardError.write(
        Data("usage: generate-corpus DIR [PER_CATEGORY] [SEED] [CATEGORY...]\n".utf8))
    exit(64)
}
let directory = arguments[1]
let perCategory = arguments.count > 2 ? Int(arguments[2]) ?? 20 : 20
let seed = arguments.count > 3 ? UInt64(arguments[3]) ?? 2026 : 2026
let only = Set(arguments.dropFirst(4))
let recipes = CardPhotoGenerator.fullRecipes.filter { only.isEmpty || only.contains($0.category) }
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
var generator = CardPhotoGenerator(seed: seed)
var manifest = "file\tcategory\texpected\tmust_read\n"
for recipe in recipes {
    for index in 0..<perCategory {
        let photo = generator.photo(recipe, name: "\(recipe.category)-\(index)")
        try Data(photo.bytes).write(to: URL(fileURLWithPath: directory + "/" + photo.name))
        manifest += "\(photo.name)\t\(photo.category)\t\(photo.expectedID ?? "-")\t\(photo.mustRead)\n"
    }
}
try Data(manifest.utf8).write(to: URL(fileURLWithPath: directory + "/manifest.tsv"))
print("wrote \(perCategory * recipes.count) photos to \(directory)")
