import CSystemdBus
import DynamicLoading

/// sd-bus, opened with `dlopen` by the backlight guardian alone (why: docs/ARCHITECTURE.md §17).
enum SystemBusLibrary {
    /// Its functions from libsystemd, else from libelogind (the same API, where elogind runs instead of
    /// systemd), bound on first use; the error is libsystemd's.
    static let functions = DynamicLibrary.bind(
        .systemdBus, names: gymcard_systemd_bus_function_names(), as: gymcard_systemd_bus_functions.self
    ).flatMapError { error in
        DynamicLibrary.bind(
            .elogindBus, names: gymcard_systemd_bus_function_names(), as: gymcard_systemd_bus_functions.self
        ).mapError { _ in error }
    }
}
