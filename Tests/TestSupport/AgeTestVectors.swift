import CZlib
import Foundation

/// The age format's own test vectors (C2SP CCTV, `age/testdata`), read from
/// `../shared/realworld/age-cctv/testdata` beside the package. Each file is a "key: value" header, an
/// empty line, then the age file, zlib-compressed when the header says `compressed: zlib`.
public struct AgeTestVector: Sendable, CustomStringConvertible {
    /// The file's name, e.g. `scrypt_bad_tag`.
    public var name: String
    /// `success`, `no match`, `header failure`, `HMAC failure`, `armor failure` or `payload failure`.
    public var expect: String
    /// The SHA-256 of the payload, in hex, for `success`.
    public var payloadHash: String?
    /// The passphrases given (scrypt vectors); empty for vectors addressed to keys.
    public var passphrases: [String]
    /// Whether the file is armored.
    public var armored: Bool
    /// The age file itself, decompressed.
    public var file: [UInt8]

    /// The name, as test arguments show it.
    public var description: String { name }

    /// The folder, or `nil` when it is not beside the package (a clone elsewhere).
    public static var directory: URL? {
        let url = GymcardProcess.packageRoot.deletingLastPathComponent()
            .appendingPathComponent("shared/realworld/age-cctv/testdata")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// Every vector, sorted by name; empty when the folder is absent.
    public static func all() throws -> [AgeTestVector] {
        guard let directory else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map {
            try AgeTestVector(
                name: $0, contents: [UInt8](Data(contentsOf: directory.appendingPathComponent($0))))
        }
    }

    init(name: String, contents: [UInt8]) throws {
        self.name = name
        guard let split = contents.firstRange(of: [10, 10]) else { throw Malformed(name: name) }
        let header = String(decoding: contents[..<split.lowerBound], as: UTF8.self)
        var fields: [(String, String)] = []
        for line in header.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { throw Malformed(name: name) }
            fields.append(
                (String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " })))
        }
        expect = fields.first { $0.0 == "expect" }?.1 ?? ""
        payloadHash = fields.first { $0.0 == "payload" }?.1
        passphrases = fields.filter { $0.0 == "passphrase" }.map(\.1)
        armored = fields.contains { $0.0 == "armored" && $0.1 == "yes" }
        let body = Array(contents[split.upperBound...])
        file =
            fields.contains { $0.0 == "compressed" && $0.1 == "zlib" }
            ? try Self.inflate(body, name: name) : body
    }

    /// zlib's `uncompress`, growing the buffer until it fits (the largest vector is about 16 MiB).
    static func inflate(_ compressed: [UInt8], name: String) throws -> [UInt8] {
        var capacity = max(1 << 16, compressed.count * 8)
        while capacity <= 1 << 28 {
            var output = [UInt8](repeating: 0, count: capacity)
            var length = uLongf(capacity)
            let status = output.withUnsafeMutableBufferPointer { out in
                compressed.withUnsafeBufferPointer { input in
                    uncompress(out.baseAddress, &length, input.baseAddress, uLong(input.count))
                }
            }
            if status == Z_OK { return Array(output.prefix(Int(length))) }
            guard status == Z_BUF_ERROR else { throw Malformed(name: name) }
            capacity *= 4
        }
        throw Malformed(name: name)
    }

    /// A vector file that is not in the documented format.
    public struct Malformed: Error {
        /// The vector's name.
        public var name: String
    }
}
