import CSystemdBus
import DynamicLoading

/// libsystemd's D-Bus client (sd-bus), or elogind's copy of it, loaded with `dlopen` by the backlight
/// guardian alone: no other gymcard process maps it (linked, libsystemd brings liblzma, libzstd, liblz4,
/// libcap and libgcrypt into every start). Only functions with fixed arguments are used: Swift cannot
/// call C's variadic `sd_bus_call_method`.
enum SystemBusLibrary {
    /// sd-bus's functions from libsystemd, else from libelogind (the same API, on systems that run elogind
    /// instead of systemd), bound on first use; the error is libsystemd's.
    static let functions = DynamicLibrary.bind(
        .systemdBus, names: gymcard_systemd_bus_function_names(), as: gymcard_systemd_bus_functions.self
    ).flatMapError { error in
        DynamicLibrary.bind(
            .elogindBus, names: gymcard_systemd_bus_function_names(), as: gymcard_systemd_bus_functions.self
        ).mapError { _ in error }
    }
}
