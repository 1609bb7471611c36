import Glibc

/// The screen's backlight at full while the card shows, and back to the level it had (ARCHITECTURE §16).
///
/// Through logind when it answers (the session's own backlight, no root needed); the `brightness` file is
/// written directly only where there is no logind to ask and the file is writable (a system without
/// systemd-logind or elogind, with a udev rule for the `video` group), and never for a remote shell.
/// Nothing is ever said: a desktop without a backlight, ssh, or a refusal all leave the screen as it is.
public struct BacklightLevel: Sendable {
    /// A raised backlight: what to put back, and how it was raised.
    public struct Raised: Sendable, Equatable {
        /// The device.
        public var device: BacklightDevice
        /// Whether logind set it (else the file was written).
        public var throughLogind: Bool
    }

    /// Where the devices are.
    public let folder: BacklightFolder
    /// Whether the user is on a remote shell (ssh), where only logind may decide.
    public let remote: Bool
    /// Asks logind (a parameter so that tests can take logind away).
    let logind: @Sendable (String, UInt32) -> LogindBrightness.Answer

    /// The backlight in `folder`; `environment` tells a remote shell (`SSH_CONNECTION`, `SSH_TTY`).
    public init(folder: BacklightFolder, environment: [String: String]) {
        self.folder = folder
        remote = ["SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY"].contains { !(environment[$0] ?? "").isEmpty }
        logind = { LogindBrightness.set(device: $0, level: $1) }
    }

    /// The backlight in `folder`, asking `logind` (tests).
    init(
        folder: BacklightFolder, remote: Bool,
        logind: @escaping @Sendable (String, UInt32) -> LogindBrightness.Answer
    ) {
        self.folder = folder
        self.remote = remote
        self.logind = logind
    }

    /// Turns the preferred backlight to its maximum; `nil` when nothing was changed: no backlight, already at
    /// its maximum, or refused.
    public func raise() -> Raised? {
        guard let device = folder.preferred(), device.brightness < device.maximum else { return nil }
        switch logind(device.name, device.maximum) {
        case .done:
            return Raised(device: device, throughLogind: true)
        case .refused:
            // A call that timed out may still have been carried out: then it is ours to put back.
            let now = try? folder.device(named: device.name)
            return now?.brightness == device.maximum ? Raised(device: device, throughLogind: true) : nil
        case .unreachable:
            guard !remote, Self.write(device.maximum, to: device.brightnessPath) else { return nil }
            return Raised(device: device, throughLogind: false)
        }
    }

    /// Puts the level back as it was before ``raise()``: the way it was raised, else (logind refusing now,
    /// the session no longer in the foreground) the file when it is writable.
    public func restore(_ raised: Raised) {
        let device = raised.device
        if raised.throughLogind, logind(device.name, device.brightness) == .done { return }
        _ = Self.write(device.brightness, to: device.brightnessPath)
    }

    /// Writes `level` to a `brightness` file; false when it cannot be opened for writing or the kernel
    /// refuses the value.
    static func write(_ level: UInt32, to path: String) -> Bool {
        // O_TRUNC is ignored by sysfs and makes a stand-in file hold the one number.
        let descriptor = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let text = Array("\(level)\n".utf8)
        let written = text.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        return written == text.count
    }
}
