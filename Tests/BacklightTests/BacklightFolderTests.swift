import Foundation
import TestSupport
import Testing

@testable import Backlight

@Suite("The backlight folder: levels read as the kernel writes them, anything else is no backlight")
struct BacklightFolderTests {
    @Test(
        "levels with or without the kernel's newline",
        arguments: [
            ("4000\n", "96000\n"), ("4000", "96000"), ("0\n", "1\n"), ("4294967294\n", "4294967295\n"),
        ])
    func levels(brightness: String, maximum: String) throws {
        let standIn = try StandInBacklight([
            .init("intel_backlight", brightness: brightness, maximum: maximum)
        ])
        let device = try #require(BacklightFolder(path: standIn.path).preferred())
        #expect(device.name == "intel_backlight")
        #expect("\(device.brightness)\n" == brightness || "\(device.brightness)" == brightness)
        #expect("\(device.maximum)\n" == maximum || "\(device.maximum)" == maximum)
        #expect(device.brightnessPath == standIn.path + "/intel_backlight/brightness")
    }

    /// What a damaged or foreign file may hold; none of it is a level.
    static let garbage = [
        "", "\n", "abc\n", "-5\n", "12abc\n", "1 2\n", "0x10\n", "+5\n", " 5\n", "5\n\n", "4294967296\n",
        "99999999999999999999\n", "١٢\n", "5.0\n",
    ]

    @Test("a brightness that is not a decimal number: no backlight", arguments: garbage)
    func garbageBrightness(text: String) throws {
        let standIn = try StandInBacklight([.init("acpi_video0", brightness: text, maximum: "15\n")])
        let folder = BacklightFolder(path: standIn.path)
        #expect(folder.preferred() == nil)
        #expect(throws: BacklightProblem.notANumber(standIn.path + "/acpi_video0/brightness")) {
            try folder.device(named: "acpi_video0")
        }
    }

    @Test("a maximum that is not a decimal number: no backlight", arguments: garbage)
    func garbageMaximum(text: String) throws {
        let standIn = try StandInBacklight([.init("acpi_video0", brightness: "5\n", maximum: text)])
        let folder = BacklightFolder(path: standIn.path)
        #expect(folder.preferred() == nil)
        #expect(throws: BacklightProblem.notANumber(standIn.path + "/acpi_video0/max_brightness")) {
            try folder.device(named: "acpi_video0")
        }
    }

    @Test("a maximum of 0 has nothing to raise")
    func maximumZero() throws {
        let standIn = try StandInBacklight([.init("panel", brightness: "0\n", maximum: "0\n")])
        let folder = BacklightFolder(path: standIn.path)
        #expect(folder.preferred() == nil)
        #expect(throws: BacklightProblem.noRange(standIn.path + "/panel/max_brightness")) {
            try folder.device(named: "panel")
        }
    }

    @Test("a missing level file, a device folder that is empty, a folder with no device, no folder at all")
    func missing() throws {
        let standIn = try StandInBacklight([
            .init("no_brightness", brightness: nil, maximum: "255\n"),
            .init("no_maximum", brightness: "12\n", maximum: nil),
            .init("empty", brightness: nil, maximum: nil, type: nil),
        ])
        let folder = BacklightFolder(path: standIn.path)
        #expect(folder.devices().isEmpty)
        #expect(throws: BacklightProblem.missing(standIn.path + "/no_brightness/brightness")) {
            try folder.device(named: "no_brightness")
        }
        #expect(throws: BacklightProblem.missing(standIn.path + "/no_maximum/max_brightness")) {
            try folder.device(named: "no_maximum")
        }
        let empty = try StandInBacklight([])
        #expect(BacklightFolder(path: empty.path).preferred() == nil)
        #expect(BacklightFolder(path: standIn.path + "/absent").preferred() == nil)
        #expect(BacklightFolder(path: "/nonexistent-\(UUID().uuidString)").devices().isEmpty)
    }

    @Test("a directory where a level file should be cannot be read")
    func directoryInPlace() throws {
        let standIn = try StandInBacklight([.init("panel", brightness: nil, maximum: "255\n")])
        try FileManager.default.createDirectory(
            atPath: standIn.path + "/panel/brightness", withIntermediateDirectories: false)
        #expect(throws: BacklightProblem.unreadable(standIn.path + "/panel/brightness")) {
            try BacklightFolder(path: standIn.path).device(named: "panel")
        }
    }

    @Test("the kernel's preference: firmware, then platform, then raw, then no type; by name among equals")
    func preference() throws {
        func preferred(_ devices: [StandInBacklight.Device]) throws -> String? {
            let standIn = try StandInBacklight(devices)
            return BacklightFolder(path: standIn.path).preferred()?.name
        }
        let raw = StandInBacklight.Device.levels("intel_backlight", 100, of: 1000, type: "raw")
        let platform = StandInBacklight.Device.levels("thinkpad_screen", 5, of: 15, type: "platform")
        let firmware = StandInBacklight.Device.levels("acpi_video0", 5, of: 15, type: "firmware")
        let untyped = StandInBacklight.Device("zz_untyped", brightness: "1\n", maximum: "2\n", type: nil)
        #expect(try preferred([raw, platform, firmware, untyped]) == "acpi_video0")
        #expect(try preferred([raw, platform, untyped]) == "thinkpad_screen")
        #expect(try preferred([untyped, raw]) == "intel_backlight")
        #expect(try preferred([untyped]) == "zz_untyped")
        #expect(
            try preferred([.levels("b_raw", 1, of: 2), .levels("a_raw", 1, of: 2)]) == "a_raw", "by name")
        // A firmware device that cannot be read does not hide a good one.
        let broken = StandInBacklight.Device(
            "acpi_video0", brightness: "x\n", maximum: "15\n", type: "firmware\n")
        #expect(try preferred([broken, raw]) == "intel_backlight")
    }

    @Test("the tests' stand-in is named by GYMCARD_TEST_BACKLIGHT; otherwise the kernel's folder")
    func folderFromEnvironment() {
        #expect(BacklightFolder(environment: [:]).path == "/sys/class/backlight")
        #expect(BacklightFolder(environment: ["GYMCARD_TEST_BACKLIGHT": ""]).path == "/sys/class/backlight")
        #expect(BacklightFolder(environment: ["GYMCARD_TEST_BACKLIGHT": "/tmp/x"]).path == "/tmp/x")
    }
}
