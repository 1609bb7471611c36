import CDmtx
import CHeif
import CLibCrypto
import CSQLite
import CSystemdBus
import CTIFF
import CWebP
import CZBar
import CZint
import CZip
import DynamicLoading
import Foundation
import Glibc
import TestSupport
import Testing

/// Whether `soname` opens on this machine.
private func opens(_ soname: String) -> Bool {
    guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else { return false }
    dlclose(handle)
    return true
}

/// The registry's libraries that gymcard binds itself (zxing-cpp is the helper's: it has no table).
private let boundLibraries = SystemLibrary.all.filter { $0 != .zxing }

/// Binds `library`'s table, as the module that uses it does; the error when it does not bind.
private func bindTable(_ library: SystemLibrary) -> LoadingError? {
    func bind<Table>(_ names: UnsafePointer<UnsafePointer<CChar>?>, _ table: Table.Type) -> LoadingError? {
        if case .failure(let error) = DynamicLibrary.bind(library, names: names, as: table) {
            error
        } else {
            nil
        }
    }
    switch library {
    case .zbar: return bind(gymcard_zbar_function_names(), gymcard_zbar_functions.self)
    case .libcrypto: return bind(gymcard_libcrypto_function_names(), gymcard_libcrypto_functions.self)
    case .dmtx: return bind(gymcard_dmtx_function_names(), gymcard_dmtx_functions.self)
    case .heif: return bind(gymcard_heif_function_names(), gymcard_heif_functions.self)
    case .webp: return bind(gymcard_webp_function_names(), gymcard_webp_functions.self)
    case .tiff: return bind(gymcard_tiff_function_names(), gymcard_tiff_functions.self)
    case .zint: return bind(gymcard_zint_function_names(), gymcard_zint_functions.self)
    case .zip: return bind(gymcard_zip_function_names(), gymcard_zip_functions.self)
    case .sqlite: return bind(gymcard_sqlite_function_names(), gymcard_sqlite_functions.self)
    case .systemdBus, .elogindBus:
        return bind(gymcard_systemd_bus_function_names(), gymcard_systemd_bus_functions.self)
    default: return .notLoaded(library, reason: "no table for \(library.name) in this test")
    }
}

/// The installed packages and files `dpkg -S` finds for `soname` (`libzbar0:amd64: /usr/lib/…/libzbar.so.0`
/// gives `libzbar0` and the path).
private func packages(owning soname: String) async throws -> [(package: String, path: String)] {
    let dpkg = try await ChildProcess.run("/usr/bin/dpkg", ["-S", "*/\(soname)"], timeoutSeconds: 60)
    return dpkg.stdoutText.split(separator: "\n").compactMap { line in
        guard let separator = line.range(of: ": ") else { return nil }
        let package = line[..<separator.lowerBound].split(separator: ":").first.map(String.init) ?? ""
        return (package, String(line[separator.upperBound...]))
    }
}

@Suite("The registry: every library's table binds here, and its package ships its file")
struct RegistryTests {
    /// This machine has every library of the registry (scripts/install-system-packages); under CI=true
    /// every one must be there.
    static let allInstalled = SystemLibrary.all.allSatisfy { opens($0.soname) }

    @Test(
        "each library's table binds against the installed library",
        .enabled(if: Prerequisite.runs(allInstalled), "every library of SystemLibrary.all is needed"),
        arguments: boundLibraries.map(\.name))
    func tableBinds(name: String) throws {
        let library = try #require(SystemLibrary.all.first { $0.name == name })
        let error = bindTable(library)
        #expect(error == nil, "\(error.map(String.init(describing:)) ?? "")")
    }

    @Test(
        "each library's Debian package installs its soname",
        .enabled(
            if: Prerequisite.runs(
                allInstalled && FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg")),
            "dpkg and every library of SystemLibrary.all are needed"),
        arguments: SystemLibrary.all.map(\.name))
    func packageShipsSoname(name: String) async throws {
        let library = try #require(SystemLibrary.all.first { $0.name == name })
        let owners = try await packages(owning: library.soname)
        #expect(
            owners.contains {
                $0.package == library.debianPackage && $0.path.hasSuffix("/" + library.soname)
            },
            "dpkg -S \(library.soname): \(owners)")
    }

    @Test("libraries have distinct names and sonames")
    func distinct() {
        let all = SystemLibrary.all + [.elogindBus]
        #expect(Set(all.map(\.name)).count == all.count)
        #expect(Set(all.map(\.soname)).count == all.count)
    }
}
