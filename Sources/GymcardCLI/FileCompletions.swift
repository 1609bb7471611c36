import ArgumentParser
import CampusFeature
import CardFeature
import FoundationEssentials
import GymcardCore

/// What the shells complete after the options and arguments that name files.
///
/// Each shell's script matches extensions case-sensitively (bash's `compgen -X`, zsh's `_files -g`, fish's
/// glob), and phones write `IMG_0001.JPG` and `IMG_0001.HEIC`: each extension is listed in both cases.
/// Directories are always offered, so a path can be completed step by step.
extension CompletionKind {
    /// Photos `scan` reads: JPEG, PNG, HEIC/HEIF, AVIF, WebP, TIFF and PNM.
    static let photos = files([
        "jpg", "jpeg", "png", "heic", "heif", "avif", "webp", "tif", "tiff", "pnm", "pgm", "ppm", "pbm",
    ])

    /// PNG images (`--png`, `--qr`) and SVG images (`--svg`).
    static let pngFiles = files(["png"]), svgFiles = files(["svg"])

    /// Campus names from the config file (`--campus`, `campus use`).
    static let campuses = custom { _, _, _ in
        CompletionCandidates.campuses(environment: ProcessInfo.processInfo.environment)
    }

    /// Facility keys and names of the campus on the command line, or the one in use, from the config file.
    static let facilities = custom { words, _, _ in
        CompletionCandidates.facilities(words: words, environment: ProcessInfo.processInfo.environment)
    }

    /// Files with one of `extensions`, in lower and upper case.
    static func files(_ extensions: [String]) -> CompletionKind {
        .file(extensions: extensions + extensions.map { $0.uppercased() })
    }
}
