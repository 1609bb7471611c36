import Foundation
import Storage
import TestSupport
import Testing

@Suite("Paths a person names")
struct UserFileTests {
    @Test("what each kind of path is written as")
    func targets() throws {
        let directory = try TemporaryDirectory()
        let base = directory.path
        try Data("x".utf8).write(to: URL(fileURLWithPath: base + "/regular.png"))
        chmod(base + "/regular.png", 0o640)
        #expect(mkfifo(base + "/fifo", 0o600) == 0)
        let links = [
            ("link-to-regular", "regular.png"), ("link-to-link", "link-to-regular"),
            ("dangling", "missing.png"),
            ("link-to-stdout", "/dev/stdout"), ("link-to-fifo", base + "/fifo"), ("loop-a", "loop-b"),
            ("loop-b", "loop-a"),
        ]
        for (name, destination) in links {
            try FileManager.default.createSymbolicLink(
                atPath: base + "/" + name, withDestinationPath: destination)
        }
        let regular = UserFile.Target.regularFile(
            path: base + "/regular.png", mode: 0o640, owner: geteuid(), group: getegid())
        #expect(try UserFile.target(of: base + "/regular.png") == regular)
        #expect(
            try UserFile.target(of: base + "/link-to-link")
                == .regularFile(path: base + "/regular.png", mode: 0o640, owner: geteuid(), group: getegid()))
        #expect(try UserFile.target(of: base + "/dangling") == .newFile(path: base + "/missing.png"))
        #expect(try UserFile.target(of: base + "/new.png") == .newFile(path: base + "/new.png"))
        #expect(try UserFile.target(of: "/dev/stdout") == .descriptor(1))
        #expect(try UserFile.target(of: "/dev/stderr") == .descriptor(2))
        #expect(try UserFile.target(of: "/dev/fd/2") == .descriptor(2))
        #expect(try UserFile.target(of: "/proc/self/fd/1") == .descriptor(1))
        #expect(try UserFile.target(of: base + "/link-to-stdout") == .descriptor(1))
        #expect(try UserFile.target(of: "/dev/null") == .special(path: "/dev/null"))
        #expect(try UserFile.target(of: base + "/link-to-fifo") == .special(path: base + "/fifo"))
        #expect(throws: StorageError.isDirectory(path: base)) { try UserFile.target(of: base) }
        #expect(throws: StorageError.isDirectory(path: base + "/x/")) {
            try UserFile.target(of: base + "/x/")
        }
        let socketPath = base + "/socket"
        let socketDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketDescriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in socketPath.utf8.enumerated() where index < raw.count - 1 {
                raw[index] = byte
            }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        #expect(throws: StorageError.self) { try UserFile.target(of: socketPath) }
        #expect(throws: StorageError.self) { try UserFile.target(of: base + "/loop-a") }
        #expect(throws: StorageError.self) { try UserFile.target(of: "/dev/fd/987") }
    }

    @Test("replacing keeps the file's mode; a new file gets 0666 minus the umask; nothing else is left")
    func permissions() throws {
        let directory = try TemporaryDirectory()
        let existing = directory.path + "/existing.svg"
        try Data("old".utf8).write(to: URL(fileURLWithPath: existing))
        chmod(existing, 0o604)
        try UserFile.write(Array("new".utf8), to: existing)
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "new")
        #expect(
            try FileManager.default.attributesOfItem(atPath: existing)[.posixPermissions] as? Int == 0o604)

        // The test process's umask, read the way it cannot be changed by a concurrent test.
        let mask = try #require(
            String(contentsOfFile: "/proc/self/status", encoding: .utf8).split(separator: "\n")
                .first { $0.hasPrefix("Umask:") }.flatMap {
                    Int($0.dropFirst(6).filter(\.isNumber), radix: 8)
                })
        try UserFile.write(Array("fresh".utf8), to: directory.path + "/fresh.svg")
        #expect(
            try FileManager.default.attributesOfItem(atPath: directory.path + "/fresh.svg")[.posixPermissions]
                as? Int == 0o666 & ~mask)
        #expect(try directory.contents() == ["existing.svg", "fresh.svg"])
    }

    @Test("a device is written in place: /dev/null takes the bytes and stays a device")
    func device() throws {
        try UserFile.write(Array("discarded".utf8), to: "/dev/null")
        var status = stat()
        #expect(lstat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    }
}
