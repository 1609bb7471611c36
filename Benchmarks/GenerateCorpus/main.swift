// Writes the seeded card-photo corpus to a directory with a manifest, for Benchmarks/scan.sh.
//   generate-corpus DIR [PER_CATEGORY] [SEED] [CATEGORY...]   (only those categories, when named)
//   generate-corpus --samples DIR        the small photos committed in samples/
import Foundation
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
