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
// generate-corpus --symbol SYMBOLOGY TEXT DIR [...]: photos of a card that carries TEXT in any symbology
// (drawn by gymcard's Symbols at 8 px a module on a white card), for what the Codabar corpus does not cover.
var rest = Array(arguments.dropFirst())
var symbolCard: (card: GrayImage, module: Int, text: String)?
if rest.count >= 3, rest[0] == "--symbol" {
    guard let symbology = Symbology(name: rest[1]),
        let content = try? BarcodeContent(symbology: symbology, normalizing: rest[2]),
        let card = try? CardPhotoGenerator.symbolCard(content)
    else {
        FileHandle.standardError.write(
            Data("generate-corpus: cannot draw that text in that symbology\n".utf8))
        exit(65)
    }
    symbolCard = (card, 8, content.text)
    rest.removeFirst(3)
}
guard !rest.isEmpty else {
    FileHandle.standardError.write(
        Data(
            "usage: generate-corpus [--symbol SYMBOLOGY TEXT] DIR [PER_CATEGORY] [SEED] [CATEGORY...]\n".utf8)
    )
    exit(64)
}
let directory = rest[0]
let perCategory = rest.count > 1 ? Int(rest[1]) ?? 20 : 20
let seed = rest.count > 2 ? UInt64(rest[2]) ?? 2026 : 2026
let only = Set(rest.dropFirst(3))
// Another symbology's card is photographed as a card; the label recipes draw Codabar labels of their own.
let recipes = CardPhotoGenerator.fullRecipes.filter {
    (only.isEmpty || only.contains($0.category)) && (symbolCard == nil || ($0.hasBarcode && !$0.label))
}
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
var generator = CardPhotoGenerator(seed: seed)
var manifest = "file\tcategory\texpected\tmust_read\n"
for recipe in recipes {
    for index in 0..<perCategory {
        var photo = generator.photo(recipe, name: "\(recipe.category)-\(index)")
        if let symbolCard {
            photo.bytes = generator.photograph(
                symbolCard.card, narrowBarPixels: symbolCard.module, recipe: recipe)
            photo.expectedID = symbolCard.text
        }
        try Data(photo.bytes).write(to: URL(fileURLWithPath: directory + "/" + photo.name))
        manifest += "\(photo.name)\t\(photo.category)\t\(photo.expectedID ?? "-")\t\(photo.mustRead)\n"
    }
}
try Data(manifest.utf8).write(to: URL(fileURLWithPath: directory + "/manifest.tsv"))
print("wrote \(perCategory * recipes.count) photos to \(directory)")
