import Glibc

/// A C library opened with `dlopen` on first use, its functions bound into a table declared in C from the
/// library's own header (docs/ARCHITECTURE.md §17).
public enum DynamicLibrary {
    /// Opens `library` and fills a `Table` from the names `names` returns (a null-terminated array, one
    /// name per member, in the members' order). The library stays open for the life of the process; on a
    /// failure it is closed again and the error names what is missing.
    public static func bind<Table>(
        _ library: SystemLibrary, names: UnsafePointer<UnsafePointer<CChar>?>, as _: Table.Type
    ) -> Result<Table, LoadingError> {
        var count = 0
        while names[count] != nil { count += 1 }
        let slot = MemoryLayout<UnsafeRawPointer>.stride
        // The table is nothing but function pointers, one per name (a stale object's is not: §17).
        precondition(
            MemoryLayout<Table>.size == count * slot,
            "\(Table.self) is \(MemoryLayout<Table>.size) bytes, not \(count) pointers")
        _ = dlerror()
        guard let handle = dlopen(library.soname, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(.notLoaded(library, reason: lastError()))
        }
        let table = UnsafeMutableRawPointer.allocate(
            byteCount: Swift.max(1, count * slot), alignment: MemoryLayout<Table>.alignment)
        defer { table.deallocate() }
        for index in 0..<count {
            let symbol = names[index].map { String(cString: $0) } ?? ""
            _ = dlerror()
            guard let address = dlsym(handle, symbol) else {
                let reason = lastError()
                dlclose(handle)
                return .failure(.missingSymbol(library, symbol: symbol, reason: reason))
            }
            table.storeBytes(of: address, toByteOffset: index * slot, as: UnsafeMutableRawPointer.self)
        }
        return .success(table.load(as: Table.self))
    }

    private static func lastError() -> String { dlerror().map { String(cString: $0) } ?? "" }
}

extension Result where Failure == LoadingError {
    /// Why the library could not be bound, or `nil` when it was.
    public var loadingError: LoadingError? { if case .failure(let error) = self { error } else { nil } }
}

/// Why a library could not be bound: neutral facts; what to do about them is the caller's to say (with
/// ``SystemLibrary/debianPackage``).
public enum LoadingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `dlopen` failed: the library is not installed (or one it needs is not); `reason` is `dlerror()`'s.
    case notLoaded(SystemLibrary, reason: String)
    /// The library opened but lacks a function gymcard calls: another version than the one it was built
    /// against.
    case missingSymbol(SystemLibrary, symbol: String, reason: String)

    /// The library that failed.
    public var library: SystemLibrary {
        switch self {
        case .notLoaded(let library, _), .missingSymbol(let library, _, _): library
        }
    }

    /// Whether no file of the library was found (rather than one found that does not load or lacks a
    /// function): `dlopen`'s ENOENT.
    public var isAbsent: Bool {
        if case .notLoaded(_, let reason) = self {
            reason.isEmpty || reason.hasSuffix("No such file or directory")
        } else {
            false
        }
    }

    /// One line: the library, and the symbol when one is missing, or `dlopen`'s reason when a file of it
    /// was found that does not load (damaged, another architecture).
    public var description: String {
        switch self {
        case .notLoaded(let library, _) where isAbsent: "\(library.soname) is not installed"
        case .notLoaded(let library, let reason): "\(library.soname) does not load (\(reason))"
        case .missingSymbol(let library, let symbol, _): "\(library.soname) has no \(symbol)"
        }
    }
}
