import CHeif
import DynamicLoading

/// libheif, opened with `dlopen` on the first HEIC or AVIF photo rather than linked (why:
/// docs/ARCHITECTURE.md §17).
enum HEIFLibrary {
    /// Its functions, bound and initialised (`heif_init` registers the codec plugins) on first use.
    static let functions = DynamicLibrary.bind(
        .heif, names: gymcard_heif_function_names(), as: gymcard_heif_functions.self
    ).flatMap { heif -> Result<gymcard_heif_functions, LoadingError> in
        heif.heif_init(nil).code == heif_error_Ok
            ? .success(heif) : .failure(.notLoaded(.heif, reason: "heif_init failed"))
    }
}
