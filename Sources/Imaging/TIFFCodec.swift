import CTIFF
import DynamicLoading
import Glibc

/// TIFF (what `scanimage --format=tiff` and flatbed scanners save) through libtiff, loaded with `dlopen`
/// on the first TIFF file (``functions``). Every compression, bit depth and photometric libtiff's
/// RGBA interface reads (grey, bilevel, palette, RGB, CMYK, YCbCr, JPEG-in-TIFF, 16-bit) is read, a band
/// of rows at a time; every page of a multi-page file can be.
public enum TIFFCodec {
    /// libtiff's functions (4.5 or later, for its per-file error handlers), bound on the first TIFF file;
    /// `nonisolated(unsafe)` for its variadic slot (docs/ARCHITECTURE.md §17).
    nonisolated(unsafe) static let functions = DynamicLibrary.bind(
        .tiff, names: gymcard_tiff_function_names(), as: gymcard_tiff_functions.self)

    /// Whether libtiff loads here (TIFF images read).
    public static var isAvailable: Bool { loadingError == nil }

    /// Why its library cannot be bound, or `nil`.
    public static var loadingError: LoadingError? { functions.loadingError }

    /// The most bytes libtiff may hold for one strip or tile while decoding: it decodes a strip whole
    /// (a file written as one compressed strip of a large colour scan would need hundreds of MB). libtiff
    /// splits uncompressed strips itself, so only compressed ones this large are refused.
    public static let maximumStripBytes = 64 << 20

    /// The RGBA band handed to libtiff is at most this many bytes (4 a pixel).
    static let maximumBandBytes = 16 << 20

    /// The number of pages (images that are not reduced-size previews of another).
    public static func pageCount(_ bytes: [UInt8]) throws(ImagingError) -> Int {
        try withFile(bytes) { tiff, file throws(ImagingError) in
            let pages = pageDirectories(tiff, file.handle)
            // libtiff follows the chain of pages and reports an error where a link points past the end or
            // a page's directory cannot be read (a file cut short after its first page), then counts only
            // the pages before it. Such a file is damaged, not a shorter document: read as one, its first
            // page alone was scanned and a blank one was called blank (exit 1 instead of 65).
            if let error = file.error { throw .corrupt(format: "TIFF", detail: error) }
            return pages.count
        }
    }

    /// Decodes one page (0 is the first) to 8-bit grey (colour by its luma, transparent parts on white),
    /// its rows in the order the file stores them (a page tagged as upside down or mirrored is not turned:
    /// read in bands, libtiff could only flip each band, and the scanner turns photos itself). The page's dimensions are checked against ``ImageLimits`` and
    /// its strip size against ``maximumStripBytes`` before decoding; an image larger than needed is
    /// averaged down by whole blocks as it is read, so that its longer side is still at least
    /// `minimumLongSide`.
    public static func decodeGray(_ bytes: [UInt8], page: Int = 0, minimumLongSide: Int = .max)
        throws(ImagingError) -> GrayImage
    {
        try withFile(bytes) { tiff, file throws(ImagingError) -> GrayImage in
            let directories = pageDirectories(tiff, file.handle)
            guard page >= 0, page < directories.count,
                tiff.TIFFSetDirectory(file.handle, directories[page]) != 0
            else { throw .corrupt(format: "TIFF", detail: file.error ?? "page \(page + 1) cannot be read") }
            return try decodePage(tiff, file, minimumLongSide: minimumLongSide)
        }
    }

    private static func pageDirectories(_ tiff: gymcard_tiff_functions, _ file: OpaquePointer) -> [tdir_t] {
        let count = tiff.TIFFNumberOfDirectories(file)
        var pages: [tdir_t] = []
        for directory in 0..<count where tiff.TIFFSetDirectory(file, directory) != 0 {
            let kind = uint32(tiff, file, TIFFTAG_SUBFILETYPE)
            if kind & UInt32(FILETYPE_REDUCEDIMAGE) == 0 { pages.append(directory) }
        }
        // A file whose every image is marked a preview still has its first to read.
        return pages.isEmpty && count > 0 ? [0] : pages
    }

    private static func decodePage(_ tiff: gymcard_tiff_functions, _ file: OpenFile, minimumLongSide: Int)
        throws(ImagingError) -> GrayImage
    {
        var message = [CChar](repeating: 0, count: 1024)
        var image = TIFFRGBAImage()
        guard tiff.TIFFRGBAImageBegin(&image, file.handle, 1, &message) != 0 else {
            throw .corrupt(
                format: "TIFF",
                detail: file.error
                    ?? String(
                        decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { tiff.TIFFRGBAImageEnd(&image) }
        let (width, height) = (Int(image.width), Int(image.height))
        try ImageLimits.check(width: width, height: height, format: "TIFF")
        let isTiled = tiff.TIFFIsTiled(file.handle) != 0
        let chunkBytes = Int(
            clamping: isTiled ? tiff.TIFFTileSize64(file.handle) : tiff.TIFFStripSize64(file.handle))
        guard chunkBytes <= maximumStripBytes else {
            throw .tooLargeToDecodeInParts(.tiff, megabytes: chunkBytes >> 20)
        }
        let chunkRows = Int(uint32(tiff, file.handle, isTiled ? TIFFTAG_TILELENGTH : TIFFTAG_ROWSPERSTRIP))
        // A band is whole strips (or a row of tiles) when one is small enough; else a multiple of 16 rows,
        // which keeps YCbCr subsampling whole.
        let bandLimit = Swift.max(16, maximumBandBytes / (4 * width) / 16 * 16)
        let bandRows = Swift.min(
            height, chunkRows > 0 && chunkRows <= bandLimit ? bandLimit / chunkRows * chunkRows : bandLimit)
        image.req_orientation = image.orientation
        var reducer = GrayRowReducer(
            width: width, height: height,
            factor: GrayRowReducer.factor(width: width, height: height, minimumLongSide: minimumLongSide))
        var band = [UInt32](repeating: 0, count: width * bandRows)
        var row = [UInt8](repeating: 255, count: width)
        var top = 0
        while top < height {
            let rows = Swift.min(bandRows, height - top)
            image.row_offset = Int32(top)
            image.col_offset = 0
            let read = band.withUnsafeMutableBufferPointer { buffer in
                tiff.TIFFRGBAImageGet(&image, buffer.baseAddress, UInt32(width), UInt32(rows))
            }
            guard read != 0 else {
                throw .corrupt(
                    format: "TIFF", detail: file.error ?? "rows \(top + 1)…\(top + rows) cannot be read")
            }
            band.withUnsafeBufferPointer { band in
                row.withUnsafeMutableBufferPointer { row in
                    guard let pixels = band.baseAddress, let grey = row.baseAddress else { return }
                    for y in 0..<rows {
                        gymcard_tiff_grey_row(pixels + y * width, grey, UInt32(width))
                        reducer.append(UnsafeBufferPointer(row))
                    }
                }
            }
            top += rows
        }
        return reducer.image
    }

    /// Opens the bytes with libtiff for the body, and closes them after.
    private static func withFile<Value>(
        _ bytes: [UInt8], _ body: (gymcard_tiff_functions, OpenFile) throws(ImagingError) -> Value
    ) throws(ImagingError) -> Value {
        let tiff = try functions.mapError { ImagingError.decoderMissing(.tiff, $0) }.get()
        let outcome = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(ImagingError) -> Value in
                // libtiff keeps the pointer for the file's life: it must not move.
                let source = UnsafeMutablePointer<gymcard_tiff_source>.allocate(capacity: 1)
                source.initialize(to: gymcard_tiff_source())
                defer { source.deallocate() }
                source.pointee.data = buffer.baseAddress
                source.pointee.size = UInt64(buffer.count)
                let opened = withUnsafePointer(to: tiff) { gymcard_tiff_open($0, source) }
                guard let handle = opened else {
                    throw .corrupt(
                        format: "TIFF", detail: OpenFile.message(source) ?? "libtiff cannot open it")
                }
                defer { tiff.TIFFClose(handle) }
                return try body(tiff, OpenFile(handle: handle, source: source))
            }
        }
        return try outcome.get()
    }

    /// TIFFGetFieldDefaulted (variadic: called in CTIFF's shim) for a tag with one 32-bit value; 0 when it
    /// has none.
    private static func uint32(_ tiff: gymcard_tiff_functions, _ file: OpaquePointer, _ tag: Int32) -> UInt32
    {
        withUnsafePointer(to: tiff) { gymcard_tiff_uint32($0, file, UInt32(tag)) }
    }

    /// A file libtiff has open, and where its errors go.
    struct OpenFile {
        let handle: OpaquePointer
        let source: UnsafeMutablePointer<gymcard_tiff_source>

        /// libtiff's first error about the file, if it reported one.
        var error: String? { Self.message(source) }

        static func message(_ source: UnsafeMutablePointer<gymcard_tiff_source>) -> String? {
            let text = withUnsafeBytes(of: &source.pointee.message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            return text.isEmpty ? nil : text
        }
    }
}
