import CZip
import Glibc

/// libzip (Debian's `libzip4`), loaded on first use with `dlopen` instead of linked: only the Catima zip
/// needs it, and linked it would make every gymcard process load it and its dependencies (libcrypto,
/// libbz2, libz) at start-up. The types and constants come from the CZip system-library target (zip.h).
struct LibZip: @unchecked Sendable {
    typealias SourceBufferCreate =
        @convention(c) (UnsafeRawPointer?, UInt64, Int32, UnsafeMutablePointer<zip_error_t>?) ->
        OpaquePointer?
    typealias OpenFromSource =
        @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<zip_error_t>?) -> OpaquePointer?
    typealias SourceFunction = @convention(c) (OpaquePointer?) -> Void
    typealias SourceOpen = @convention(c) (OpaquePointer?) -> Int32
    typealias SourceRead = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UInt64) -> Int64
    typealias Close = @convention(c) (OpaquePointer?) -> Int32
    typealias Discard = @convention(c) (OpaquePointer?) -> Void
    typealias FileAdd =
        @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, OpaquePointer?, UInt32) -> Int64
    typealias SetEncryption = @convention(c) (OpaquePointer?, UInt64, UInt16, UnsafePointer<CChar>?) -> Int32
    typealias SetMtime = @convention(c) (OpaquePointer?, UInt64, time_t, UInt32) -> Int32
    typealias GetError = @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<zip_error_t>?
    typealias ErrorCode = @convention(c) (UnsafePointer<zip_error_t>?) -> Int32
    typealias ErrorFunction = @convention(c) (UnsafeMutablePointer<zip_error_t>?) -> Void
    typealias ErrorString = @convention(c) (UnsafeMutablePointer<zip_error_t>?) -> UnsafePointer<CChar>?
    typealias EntryCount = @convention(c) (OpaquePointer?, UInt32) -> Int64
    typealias StatIndex =
        @convention(c) (OpaquePointer?, UInt64, UInt32, UnsafeMutablePointer<zip_stat_t>?) -> Int32
    typealias OpenEncrypted =
        @convention(c) (OpaquePointer?, UInt64, UInt32, UnsafePointer<CChar>?) -> OpaquePointer?
    typealias FileRead = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UInt64) -> Int64

    let sourceBufferCreate: SourceBufferCreate
    let openFromSource: OpenFromSource
    let sourceKeep: SourceFunction
    let sourceFree: SourceFunction
    let sourceOpen: SourceOpen
    let sourceRead: SourceRead
    let sourceClose: SourceOpen
    let close: Close
    let discard: Discard
    let fileAdd: FileAdd
    let setEncryption: SetEncryption
    let setMtime: SetMtime
    let getError: GetError
    let fileGetError: GetError
    let errorCode: ErrorCode
    let errorInit: ErrorFunction
    let errorFini: ErrorFunction
    let errorString: ErrorString
    let entryCount: EntryCount
    let statIndex: StatIndex
    let openEncrypted: OpenEncrypted
    let fileRead: FileRead
    let fileClose: Close

    /// The library, loaded once per process; `nil` when libzip is not installed.
    static let shared: LibZip? = LibZip()

    /// The loaded library, or why it cannot be used.
    static func loaded() throws(CatimaError) -> LibZip {
        guard let library = shared else { throw .libzipMissing("libzip.so.4 could not be loaded") }
        return library
    }

    private init?() {
        guard let handle = dlopen("libzip.so.4", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func load<Function>(_ name: String, as _: Function.Type) -> Function? {
            dlsym(handle, name).map { unsafeBitCast($0, to: Function.self) }
        }
        guard let sourceBufferCreate = load("zip_source_buffer_create", as: SourceBufferCreate.self),
            let openFromSource = load("zip_open_from_source", as: OpenFromSource.self),
            let sourceKeep = load("zip_source_keep", as: SourceFunction.self),
            let sourceFree = load("zip_source_free", as: SourceFunction.self),
            let sourceOpen = load("zip_source_open", as: SourceOpen.self),
            let sourceRead = load("zip_source_read", as: SourceRead.self),
            let sourceClose = load("zip_source_close", as: SourceOpen.self),
            let close = load("zip_close", as: Close.self),
            let discard = load("zip_discard", as: Discard.self),
            let fileAdd = load("zip_file_add", as: FileAdd.self),
            let setEncryption = load("zip_file_set_encryption", as: SetEncryption.self),
            let setMtime = load("zip_file_set_mtime", as: SetMtime.self),
            let getError = load("zip_get_error", as: GetError.self),
            let fileGetError = load("zip_file_get_error", as: GetError.self),
            let errorCode = load("zip_error_code_zip", as: ErrorCode.self),
            let errorInit = load("zip_error_init", as: ErrorFunction.self),
            let errorFini = load("zip_error_fini", as: ErrorFunction.self),
            let errorString = load("zip_error_strerror", as: ErrorString.self),
            let entryCount = load("zip_get_num_entries", as: EntryCount.self),
            let statIndex = load("zip_stat_index", as: StatIndex.self),
            let openEncrypted = load("zip_fopen_index_encrypted", as: OpenEncrypted.self),
            let fileRead = load("zip_fread", as: FileRead.self),
            let fileClose = load("zip_fclose", as: Close.self)
        else { return nil }
        self.sourceBufferCreate = sourceBufferCreate
        self.openFromSource = openFromSource
        self.sourceKeep = sourceKeep
        self.sourceFree = sourceFree
        self.sourceOpen = sourceOpen
        self.sourceRead = sourceRead
        self.sourceClose = sourceClose
        self.close = close
        self.discard = discard
        self.fileAdd = fileAdd
        self.setEncryption = setEncryption
        self.setMtime = setMtime
        self.getError = getError
        self.fileGetError = fileGetError
        self.errorCode = errorCode
        self.errorInit = errorInit
        self.errorFini = errorFini
        self.errorString = errorString
        self.entryCount = entryCount
        self.statIndex = statIndex
        self.openEncrypted = openEncrypted
        self.fileRead = fileRead
        self.fileClose = fileClose
    }

    /// A libzip buffer source holding a copy of `bytes`, which libzip frees.
    func source(copying bytes: [UInt8], error: UnsafeMutablePointer<zip_error_t>) -> OpaquePointer? {
        guard let memory = malloc(max(bytes.count, 1)) else { return nil }
        bytes.withUnsafeBytes { buffer in
            if let base = buffer.baseAddress { memory.copyMemory(from: base, byteCount: buffer.count) }
        }
        guard let source = sourceBufferCreate(memory, UInt64(bytes.count), 1, error) else {
            free(memory)
            return nil
        }
        return source
    }

    /// libzip's code and text for an error.
    func describe(_ error: UnsafeMutablePointer<zip_error_t>) -> (code: Int32, text: String) {
        let text = errorString(error).map { String(cString: $0) } ?? "unknown error"
        return (errorCode(error), text)
    }
}
