import CHeif
import DynamicLoading

/// libheif, loaded on the first HEIC or AVIF photo with `dlopen` instead of linked: it brings HEVC and AV1
/// codecs (libde265, x265, aom, dav1d) that every other gymcard command, and the status bars that run
/// gymcard every few seconds, would otherwise load at start. The types and constants come from the CHeif
/// system-library target (heif.h), the functions from its table there.
enum HEIFLibrary {
    /// libheif's functions, bound and initialised (heif_init registers the codec plugins) on first use.
    static let functions = DynamicLibrary.bind(
        .heif, names: gymcard_heif_function_names(), as: gymcard_heif_functions.self
    ).flatMap { heif -> Result<gymcard_heif_functions, LoadingError> in
        heif.heif_init(nil).code == heif_error_Ok
            ? .success(heif) : .failure(.notLoaded(.heif, reason: "heif_init failed"))
    }
}
