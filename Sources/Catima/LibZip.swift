import CZip
import DynamicLoading
import Glibc

/// libzip, loaded on first use with `dlopen` instead of linked: only the Catima zip needs it, and linked it
/// would make every gymcard process load it and its dependencies (libcrypto, libbz2, libz) at start-up.
/// The types and constants come from the CZip system-library target (zip.h), the functions from its table.
enum LibZip {
    /// libzip's functions, bound on first use; the error says which library or function is missing.
    static let functions = DynamicLibrary.bind(
        .zip, names: gymcard_zip_function_names(), as: gymcard_zip_functions.self)

    /// The loaded library, or why it cannot be used.
    static func loaded() throws(CatimaError) -> gymcard_zip_functions {
        try functions.mapError(CatimaError.libzipMissing).get()
    }
}

extension gymcard_zip_functions {
    /// A libzip buffer source holding a copy of `bytes`, which libzip frees.
    func source(copying bytes: [UInt8], error: UnsafeMutablePointer<zip_error_t>) -> OpaquePointer? {
        guard let memory = malloc(max(bytes.count, 1)) else { return nil }
        bytes.withUnsafeBytes { buffer in
            if let base = buffer.baseAddress { memory.copyMemory(from: base, byteCount: buffer.count) }
        }
        guard let source = self.zip_source_buffer_create(memory, UInt64(bytes.count), 1, error) else {
            free(memory)
            return nil
        }
        return source
    }

    /// libzip's code and text for an error.
    func describe(_ error: UnsafeMutablePointer<zip_error_t>) -> (code: Int32, text: String) {
        let text = self.zip_error_strerror(error).map { String(cString: $0) } ?? "unknown error"
        return (self.zip_error_code_zip(error), text)
    }
}
