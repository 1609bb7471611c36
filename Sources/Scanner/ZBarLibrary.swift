import CZBar
import DynamicLoading

/// libzbar, opened with `dlopen` on first use rather than linked (why: docs/ARCHITECTURE.md §17).
enum ZBarLibrary {
    /// Its functions, bound on first use; the error names the library or function missing.
    static let functions = DynamicLibrary.bind(
        .zbar, names: gymcard_zbar_function_names(), as: gymcard_zbar_functions.self)
}
