import CZBar
import DynamicLoading

/// libzbar, loaded on first use with `dlopen` instead of linked: linking it makes every gymcard process
/// load its dependencies (X11, D-Bus, systemd, libgcrypt, v4l) and run their initialisers — 1.2 ms on
/// this machine, measured with two otherwise empty programs — although only `scan` needs it.
/// The types and constants come from the CZBar system-library target (zbar.h), the functions from its table.
enum ZBarLibrary {
    /// libzbar's functions, bound on first use; the error says which library or function is missing.
    static let functions = DynamicLibrary.bind(
        .zbar, names: gymcard_zbar_function_names(), as: gymcard_zbar_functions.self)
}
