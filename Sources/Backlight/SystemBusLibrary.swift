import CSystemdBus
import Glibc

/// libsystemd's D-Bus client (sd-bus), or elogind's copy of it, loaded with `dlopen` by the backlight
/// guardian alone: no other gymcard process maps it (linked, libsystemd brings liblzma, libzstd, liblz4,
/// libcap and libgcrypt into every start). Only functions with fixed arguments are used: Swift cannot
/// call C's variadic `sd_bus_call_method`.
struct SystemBusLibrary: @unchecked Sendable {
    typealias OpenSystem = @convention(c) (UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    typealias CloseBus = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias NewMethodCall =
        @convention(c) (
            OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?, UnsafePointer<CChar>?,
            UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?
        ) -> Int32
    typealias AppendBasic = @convention(c) (OpaquePointer?, CChar, UnsafeRawPointer?) -> Int32
    typealias SetFlag = @convention(c) (OpaquePointer?, Int32) -> Int32
    typealias Call =
        @convention(c) (
            OpaquePointer?, OpaquePointer?, UInt64, UnsafeMutablePointer<sd_bus_error>?,
            UnsafeMutablePointer<OpaquePointer?>?
        ) -> Int32
    typealias MessageUnref = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias ErrorFree = @convention(c) (UnsafeMutablePointer<sd_bus_error>?) -> Void

    /// `sd_bus_open_system`: the system bus (`$DBUS_SYSTEM_BUS_ADDRESS`, else
    /// `/run/dbus/system_bus_socket`).
    let openSystem: OpenSystem
    /// `sd_bus_flush_close_unref`.
    let close: CloseBus
    /// `sd_bus_message_new_method_call`.
    let newMethodCall: NewMethodCall
    /// `sd_bus_message_append_basic`.
    let appendBasic: AppendBasic
    /// `sd_bus_message_set_auto_start`: off, so that a machine without logind does not start one for us.
    let setAutoStart: SetFlag
    /// `sd_bus_call`: sends and waits for the reply, at most the given microseconds.
    let call: Call
    /// `sd_bus_message_unref`.
    let unrefMessage: MessageUnref
    /// `sd_bus_error_free`.
    let freeError: ErrorFree

    /// Debian's libsystemd0 and libelogind0 (the same API for systems that run elogind instead of systemd).
    static let fileNames = ["libsystemd.so.0", "libelogind.so.0"]

    /// The library, loaded once per process; `nil` when neither is installed.
    static let shared: SystemBusLibrary? = fileNames.lazy.compactMap { SystemBusLibrary(fileName: $0) }.first

    private init?(fileName: String) {
        guard let handle = dlopen(fileName, RTLD_NOW | RTLD_LOCAL) else { return nil }
        func load<Function>(_ name: String, as _: Function.Type) -> Function? {
            dlsym(handle, name).map { unsafeBitCast($0, to: Function.self) }
        }
        guard let openSystem = load("sd_bus_open_system", as: OpenSystem.self),
            let close = load("sd_bus_flush_close_unref", as: CloseBus.self),
            let newMethodCall = load("sd_bus_message_new_method_call", as: NewMethodCall.self),
            let appendBasic = load("sd_bus_message_append_basic", as: AppendBasic.self),
            let setAutoStart = load("sd_bus_message_set_auto_start", as: SetFlag.self),
            let call = load("sd_bus_call", as: Call.self),
            let unrefMessage = load("sd_bus_message_unref", as: MessageUnref.self),
            let freeError = load("sd_bus_error_free", as: ErrorFree.self)
        else {
            dlclose(handle)
            return nil
        }
        self.openSystem = openSystem
        self.close = close
        self.newMethodCall = newMethodCall
        self.appendBasic = appendBasic
        self.setAutoStart = setAutoStart
        self.call = call
        self.unrefMessage = unrefMessage
        self.freeError = freeError
    }
}
