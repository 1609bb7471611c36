import Glibc
import Storage

/// A laptop's backlights as the kernel lists them in `/sys/class/backlight` (ARCHITECTURE §16): one folder
/// per device, each with `brightness` (the level last set), `max_brightness` and `type`. Tests lay out a
/// folder of their own (`GYMCARD_TEST_BACKLIGHT`).
public struct BacklightFolder: Sendable, Equatable {
    /// The folder: `/sys/class/backlight`, or a stand-in laid out like it.
    public let path: String

    /// The kernel's folder.
    public static let system = "/sys/class/backlight"

    /// The tests' stand-in for ``system``, as git's `GIT_TEST_*` variables: a folder laid out like it.
    public static let testVariable = "GYMCARD_TEST_BACKLIGHT"

    /// The folder at `path`.
    public init(path: String) { self.path = path }

    /// The kernel's folder, or the tests' stand-in when `environment` names one.
    public init(environment: [String: String]) {
        let standIn = environment[Self.testVariable] ?? ""
        path = standIn.isEmpty ? Self.system : standIn
    }

    /// The device whose brightness is the screen's: by the kernel's advice, a `firmware` interface before a
    /// `platform` one before `raw` (sysfs-class-backlight's `type`), then by name. `nil` when no device can
    /// be read (a desktop, a virtual machine, no folder).
    public func preferred() -> BacklightDevice? {
        devices().min { ($0.kind, $0.name) < ($1.kind, $1.name) }
    }

    /// Every device whose levels read as numbers with a maximum above 0.
    public func devices() -> [BacklightDevice] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.compactMap { try? device(named: $0) }
    }

    /// The device `name` as it is now.
    ///
    /// - Throws: ``BacklightProblem`` when a level is missing, not a number, or the maximum is 0.
    public func device(named name: String) throws(BacklightProblem) -> BacklightDevice {
        let folder = path + "/" + name
        let maximum = try Self.level(folder + "/max_brightness")
        guard maximum > 0 else { throw .noRange(folder + "/max_brightness") }
        let brightness = try Self.level(folder + "/brightness")
        // `type` is only advice: a device without it (a stand-in, an old driver) ranks last.
        let type = try? FileContents.read(folder + "/type", limitBytes: 64)
        let kind = type.map { BacklightDevice.Kind(String(decoding: $0, as: UTF8.self)) } ?? .other
        return BacklightDevice(
            name: name, brightness: brightness, maximum: maximum, kind: kind,
            brightnessPath: folder + "/brightness")
    }

    /// A level file: a decimal number, with or without the kernel's newline.
    static func level(_ path: String) throws(BacklightProblem) -> UInt32 {
        let contents: [UInt8]?
        do { contents = try FileContents.read(path, limitBytes: 64) } catch { throw .unreadable(path) }
        guard let bytes = contents else { throw .missing(path) }
        let text = String(decoding: bytes, as: UTF8.self)
        let digits = text.hasSuffix("\n") ? String(text.dropLast()) : text
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let value = UInt32(digits)
        else { throw .notANumber(path) }
        return value
    }
}

/// One backlight device and its levels when it was read.
public struct BacklightDevice: Sendable, Equatable {
    /// How the driver reaches the hardware (sysfs-class-backlight's `type`), in the kernel's order of
    /// preference.
    public enum Kind: Int, Sendable, Comparable {
        case firmware, platform, raw, other

        init(_ text: String) {
            switch text.hasSuffix("\n") ? String(text.dropLast()) : text {
            case "firmware": self = .firmware
            case "platform": self = .platform
            case "raw": self = .raw
            default: self = .other
            }
        }

        /// Whether `left` is preferred to `right`.
        public static func < (left: Kind, right: Kind) -> Bool { left.rawValue < right.rawValue }
    }

    /// The device's folder name (`intel_backlight`, `amdgpu_bl0`, `acpi_video0`), which logind takes.
    public var name: String
    /// The level last set.
    public var brightness: UInt32
    /// The highest level.
    public var maximum: UInt32
    /// How the driver reaches the hardware.
    public var kind: Kind
    /// The `brightness` file.
    public var brightnessPath: String
}

/// Why a device's levels cannot be read: the file and what is wrong with it.
public enum BacklightProblem: Error, Equatable, CustomStringConvertible {
    /// The file is not there.
    case missing(String)
    /// The file cannot be read (permissions, a directory in its place).
    case unreadable(String)
    /// The file does not hold a decimal number.
    case notANumber(String)
    /// `max_brightness` is 0: there is no level to raise.
    case noRange(String)

    /// What is wrong, for tests and `doctor`.
    public var description: String {
        switch self {
        case .missing(let path): "\(path) is missing"
        case .unreadable(let path): "\(path) cannot be read"
        case .notANumber(let path): "\(path) does not hold a number"
        case .noRange(let path): "\(path) is 0"
        }
    }
}
