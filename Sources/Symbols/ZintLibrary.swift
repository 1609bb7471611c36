import CZint
import DynamicLoading

/// libzint, opened with `dlopen` on first use rather than linked (why: docs/ARCHITECTURE.md §17).
enum ZintLibrary {
    /// Its functions, bound on first use; the error names the library or function missing.
    static let functions = DynamicLibrary.bind(
        .zint, names: gymcard_zint_function_names(), as: gymcard_zint_functions.self)
}
