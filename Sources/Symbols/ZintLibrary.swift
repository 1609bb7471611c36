import CZint
import DynamicLoading

/// libzint, loaded on first use with `dlopen` instead of linked, so that only a card in another symbology
/// than Codabar pays for it: `show` of a Codabar card never maps the library. The struct layout and the
/// constants come from zint.h (the CZint system-library target), the functions from its table there.
enum ZintLibrary {
    /// libzint's functions, bound on first use; the error says which library or function is missing.
    static let functions = DynamicLibrary.bind(
        .zint, names: gymcard_zint_function_names(), as: gymcard_zint_functions.self)
}
