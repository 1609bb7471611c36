import CSystemdBus
import Glibc

/// systemd-logind's `SetBrightness` on the caller's own session (ARCHITECTURE §16): the way a user changes
/// the backlight without root. logind itself refuses a session without a seat (ssh) or not in the
/// foreground, and a device of another seat.
enum LogindBrightness {
    /// What one call came to.
    enum Answer: Equatable {
        /// logind set the level.
        case done
        /// No logind to ask: no system bus, no libsystemd, no logind on the bus, no session for us, or a
        /// logind older than the method (systemd 243). Only then may the file be written directly.
        case unreachable(String)
        /// logind answered no (or did not answer in time): its error's name and message.
        case refused(String)
    }

    /// D-Bus errors that mean logind, or a session of ours, is not there to ask.
    static let absent: Set<String> = [
        "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
        "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownInterface",
        "org.freedesktop.DBus.Error.UnknownMethod",
    ]

    /// How long logind may take to answer: it writes the level from a worker of its own and replies once
    /// written, in milliseconds on a laptop.
    static let timeoutMicroseconds: UInt64 = 2_000_000

    /// Sets backlight `device` to `level` through logind:
    /// `org.freedesktop.login1.Session.SetBrightness("backlight", device, level)` on
    /// `/org/freedesktop/login1/session/auto`, the caller's session (or the user's graphical one).
    static func set(device: String, level: UInt32) -> Answer {
        guard let library = try? SystemBusLibrary.functions.get() else {
            return .unreachable("no libsystemd")
        }
        var bus: OpaquePointer?
        let opened = library.sd_bus_open_system(&bus)
        guard opened >= 0, let bus else { return .unreachable("no system bus (\(Self.errnoName(opened)))") }
        defer { _ = library.sd_bus_flush_close_unref(bus) }
        var message: OpaquePointer?
        guard
            library.sd_bus_message_new_method_call(
                bus, &message, "org.freedesktop.login1", "/org/freedesktop/login1/session/auto",
                "org.freedesktop.login1.Session", "SetBrightness") >= 0, let message
        else { return .unreachable("cannot make the call") }
        defer { _ = library.sd_bus_message_unref(message) }
        var value = level
        let appended =
            library.sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), "backlight") >= 0
            && library.sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), device) >= 0
            && withUnsafePointer(to: &value) {
                library.sd_bus_message_append_basic(message, CChar(UInt8(ascii: "u")), $0)
            }
                >= 0
        guard appended, library.sd_bus_message_set_auto_start(message, 0) >= 0 else {
            return .unreachable("cannot make the call")
        }
        var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { library.sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let called = library.sd_bus_call(bus, message, timeoutMicroseconds, &error, &reply)
        if let reply { _ = library.sd_bus_message_unref(reply) }
        if called >= 0 { return .done }
        let name = error.name.map { String(cString: $0) } ?? Self.errnoName(called)
        let detail = error.message.map { ": " + String(cString: $0) } ?? ""
        return absent.contains(name) ? .unreachable(name + detail) : .refused(name + detail)
    }

    private static func errnoName(_ result: Int32) -> String { String(cString: strerror(-result)) }
}
