import CDmtx
import DynamicLoading
import Glibc
import TestSupport
import Testing

/// Whether `soname` opens on this machine.
private func opens(_ soname: String) -> Bool {
    guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else { return false }
    dlclose(handle)
    return true
}

@Suite("One loader: a C table bound from a library, failures named")
struct DynamicLibraryTests {
    /// Every table against the library installed (under CI=true every one must be).
    @Test(
        "libdmtx's table binds against the installed libdmtx",
        .enabled(if: Prerequisite.runs(opens(SystemLibrary.dmtx.soname)), "libdmtx0b is needed"))
    func bindsDmtx() throws {
        let table = try DynamicLibrary.bind(
            .dmtx, names: gymcard_dmtx_function_names(), as: gymcard_dmtx_functions.self
        ).get()
        // A function of the table, called: libdmtx's clock is after the epoch.
        #expect(table.dmtxTimeNow().sec > 0)
    }

    /// A library that opens but lacks a function: the one line names library and function.
    @Test("a library without one of the table's functions is named with that function")
    func missingSymbol() {
        let zlib = SystemLibrary("zlib", "libz.so.1", "zlib1g", "a test")
        let result = DynamicLibrary.bind(
            zlib, names: gymcard_dmtx_function_names(), as: gymcard_dmtx_functions.self)
        guard case .failure(let error) = result else {
            Issue.record("zlib bound as libdmtx")
            return
        }
        guard case .missingSymbol(_, let symbol, let reason) = error else {
            Issue.record("not a missing symbol: \(error)")
            return
        }
        #expect(symbol == "dmtxTimeNow")
        #expect(reason.contains("dmtxTimeNow"), "dlerror() said \(reason)")
        #expect(error.description == "libz.so.1 has no dmtxTimeNow")
        #expect(error.library.debianPackage == "zlib1g")
    }

    /// A library that is not installed.
    @Test("a library that is not installed says so, with dlerror's reason")
    func notInstalled() {
        let absent = SystemLibrary("none", "libgymcard-absent.so.9", "none", "a test")
        let result = DynamicLibrary.bind(
            absent, names: gymcard_dmtx_function_names(), as: gymcard_dmtx_functions.self)
        guard case .failure(.notLoaded(let library, let reason)) = result else {
            Issue.record("bound: \(result)")
            return
        }
        #expect(library == absent)
        #expect(reason.contains("libgymcard-absent.so.9"))
    }
}
