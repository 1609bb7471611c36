import Foundation

/// A folder laid out like `/sys/class/backlight` (one folder per device with `brightness`,
/// `max_brightness` and optionally `type`), for `GYMCARD_TEST_BACKLIGHT`: what gymcard reads and writes
/// instead of the laptop's own backlight.
public final class StandInBacklight: Sendable {
    /// The folder to name in `GYMCARD_TEST_BACKLIGHT`.
    public let path: String
    private let directory: TemporaryDirectory.Owner

    /// A device as its files hold it: any text, so that tests can write garbage; `nil` leaves a file out.
    public struct Device: Sendable {
        /// The device's folder name.
        public var name: String
        /// The `brightness` file's text.
        public var brightness: String?
        /// The `max_brightness` file's text.
        public var maximum: String?
        /// The `type` file's text.
        public var type: String?

        /// A device with the kernel's newline after each value.
        public init(_ name: String, brightness: String?, maximum: String?, type: String? = "raw\n") {
            self.name = name
            self.brightness = brightness
            self.maximum = maximum
            self.type = type
        }

        /// A device with these levels, as the kernel writes them.
        public static func levels(
            _ name: String, _ brightness: UInt32, of maximum: UInt32, type: String = "raw"
        )
            -> Device
        {
            Device(name, brightness: "\(brightness)\n", maximum: "\(maximum)\n", type: type + "\n")
        }
    }

    /// A stand-in folder with `devices`; readable by every user (tests run gymcard as `nobody` too), the
    /// `brightness` files writable by their owner only.
    public init(_ devices: [Device]) throws {
        let temporary = try TemporaryDirectory()
        directory = TemporaryDirectory.Owner(temporary)
        path = temporary.path + "/backlight"
        let manager = FileManager.default
        try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
        chmod(temporary.path, 0o755)
        chmod(path, 0o755)
        for device in devices {
            let folder = path + "/" + device.name
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
            chmod(folder, 0o755)
            for (file, text) in [
                ("brightness", device.brightness), ("max_brightness", device.maximum), ("type", device.type),
            ] {
                guard let text else { continue }
                try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + file))
                chmod(folder + "/" + file, 0o644)
            }
        }
    }

    /// The text of a device's `brightness` file now.
    public func brightness(_ name: String) -> String? {
        (try? Data(contentsOf: URL(fileURLWithPath: path + "/" + name + "/brightness")))
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// The level in a device's `brightness` file now, or `nil` when it is not a number.
    public func level(_ name: String) -> UInt32? {
        brightness(name).flatMap { UInt32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Sets a `brightness` file's modification time to `seconds` after the epoch, so that a test can tell
    /// whether anything wrote it since.
    public func backdate(_ name: String, to seconds: Int = 1_000_000_000) {
        var times = [
            timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0),
        ]
        _ = utimensat(AT_FDCWD, path + "/" + name + "/brightness", &times, 0)
    }

    /// A `brightness` file's modification time, in seconds after the epoch.
    public func modified(_ name: String) -> Int? {
        var status = stat()
        guard stat(path + "/" + name + "/brightness", &status) == 0 else { return nil }
        return status.st_mtim.tv_sec
    }

    /// Waits (checking every 20 ms, at most `seconds`, a hang detector) until `name`'s level is `level`;
    /// returns the level last read.
    public func waitForLevel(_ name: String, _ level: UInt32, seconds: Double = 60) async -> UInt32? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if self.level(name) == level { return level }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return self.level(name)
    }
}

extension TemporaryDirectory {
    /// Keeps a temporary directory alive in a `Sendable` value.
    public struct Owner: @unchecked Sendable {
        let directory: TemporaryDirectory
        init(_ directory: TemporaryDirectory) { self.directory = directory }
    }
}
