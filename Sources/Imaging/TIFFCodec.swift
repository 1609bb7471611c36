import CTIFF
import Glibc

/// TIFF (what `scanimage --format=tiff` and flatbed scanners save) through libtiff, loaded with `dlopen`
/// on the first TIFF file (``TIFFLibrary``). Every compression, bit depth and photometric libtiff's
/// RGBA interface reads (grey, bilevel, palette, RGB, CMYK, YCbCr, JPEG-in-TIFF, 16-bit) is read, a band
/// of rows at a time; every page of a multi-page file can be.
public enum TIFFCodec {
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
            guard page >= 0, page < directories.count, tiff.setDirectory(file.handle, directories[page]) != 0
            else { throw .corrupt(format: "TIFF", detail: file.error ?? "page \(page + 1) cannot be read") }
            return try decodePage(tiff, file, minimumLongSide: minimumLongSide)
        }
    }

    private static func pageDirectories(_ tiff: TIFFLibrary, _ file: OpaquePointer) -> [tdir_t] {
        let count = tiff.numberOfDirectories(file)
        var pages: [tdir_t] = []
        for directory in 0..<count where tiff.setDirectory(file, directory) != 0 {
            let kind = tiff.uint32(file, TIFFTAG_SUBFILETYPE)
            if kind & UInt32(FILETYPE_REDUCEDIMAGE) == 0 { pages.append(directory) }
        }
        // A file whose every image is marked a preview still has its first to read.
        return pages.isEmpty && count > 0 ? [0] : pages
    }

    private static func decodePage(_ tiff: TIFFLibrary, _ file: OpenFile, minimumLongSide: Int)
        throws(ImagingError) -> GrayImage
    {
        var message = [CChar](repeating: 0, count: 1024)
        var image = TIFFRGBAImage()
        guard tiff.rgbaImageBegin(&image, file.handle, 1, &message) != 0 else {
            throw .corrupt(
                format: "TIFF",
                detail: file.error
                    ?? String(
                        decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { tiff.rgbaImageEnd(&image) }
        let (width, height) = (Int(image.width), Int(image.height))
        try ImageLimits.check(width: width, height: height, format: "TIFF")
        let isTiled = tiff.isTiled(file.handle) != 0
        let chunkBytes = Int(clamping: isTiled ? tiff.tileSize(file.handle) : tiff.stripSize(file.handle))
        guard chunkBytes <= maximumStripBytes else {
            throw .tooLargeToDecodeInParts(.tiff, megabytes: chunkBytes >> 20)
        }
        let chunkRows = Int(tiff.uint32(file.handle, isTiled ? TIFFTAG_TILELENGTH : TIFFTAG_ROWSPERSTRIP))
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
                tiff.rgbaImageGet(&image, buffer.baseAddress, UInt32(width), UInt32(rows))
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
        _ bytes: [UInt8], _ body: (TIFFLibrary, OpenFile) throws(ImagingError) -> Value
    ) throws(ImagingError) -> Value {
        guard let tiff = TIFFLibrary.shared else { throw .decoderMissing(.tiff) }
        let outcome = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(ImagingError) -> Value in
                // libtiff keeps the pointer for the file's life: it must not move.
                let source = UnsafeMutablePointer<gymcard_tiff_source>.allocate(capacity: 1)
                source.initialize(to: gymcard_tiff_source())
                defer { source.deallocate() }
                source.pointee.data = buffer.baseAddress
                source.pointee.size = UInt64(buffer.count)
                let opened = withUnsafePointer(to: tiff.table) { gymcard_tiff_open($0, source) }
                guard let handle = opened else {
                    throw .corrupt(
                        format: "TIFF", detail: OpenFile.message(source) ?? "libtiff cannot open it")
                }
                defer { tiff.close(handle) }
                return try body(tiff, OpenFile(handle: handle, source: source))
            }
        }
        return try outcome.get()
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

/// libtiff, loaded on the first TIFF file with `dlopen` instead of linked, so that no other command pays
/// for it at start. The types, constants and the few C helpers come from the CTIFF system-library target.
struct TIFFLibrary: @unchecked Sendable {
    typealias Close = @convention(c) (OpaquePointer?) -> Void
    typealias NumberOfDirectories = @convention(c) (OpaquePointer?) -> tdir_t
    typealias SetDirectory = @convention(c) (OpaquePointer?, tdir_t) -> Int32
    typealias IsTiled = @convention(c) (OpaquePointer?) -> Int32
    typealias ChunkSize = @convention(c) (OpaquePointer?) -> UInt64
    typealias RGBAImageBegin =
        @convention(c) (
            UnsafeMutablePointer<TIFFRGBAImage>?, OpaquePointer?, Int32, UnsafeMutablePointer<CChar>?
        )
        -> Int32
    typealias RGBAImageGet =
        @convention(c) (UnsafeMutablePointer<TIFFRGBAImage>?, UnsafeMutablePointer<UInt32>?, UInt32, UInt32)
        -> Int32
    typealias RGBAImageEnd = @convention(c) (UnsafeMutablePointer<TIFFRGBAImage>?) -> Void

    /// The functions the C helpers call (opening from memory, the variadic TIFFGetFieldDefaulted).
    let table: gymcard_tiff_functions
    let close: Close
    let numberOfDirectories: NumberOfDirectories
    let setDirectory: SetDirectory
    let isTiled: IsTiled
    let stripSize: ChunkSize
    let tileSize: ChunkSize
    let rgbaImageBegin: RGBAImageBegin
    let rgbaImageGet: RGBAImageGet
    let rgbaImageEnd: RGBAImageEnd

    /// The library, loaded once per process; `nil` when libtiff (4.5 or later, for its per-file error
    /// handlers) is not installed.
    static let shared: TIFFLibrary? = TIFFLibrary()

    private init?() {
        guard let handle = dlopen("libtiff.so.6", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func load<Function>(_ name: String, as _: Function.Type) -> Function? {
            dlsym(handle, name).map { unsafeBitCast($0, to: Function.self) }
        }
        var table = gymcard_tiff_functions()
        table.ClientOpenExt = dlsym(handle, "TIFFClientOpenExt")
        table.OpenOptionsAlloc = dlsym(handle, "TIFFOpenOptionsAlloc")
        table.OpenOptionsFree = dlsym(handle, "TIFFOpenOptionsFree")
        table.OpenOptionsSetErrorHandlerExtR = dlsym(handle, "TIFFOpenOptionsSetErrorHandlerExtR")
        table.OpenOptionsSetWarningHandlerExtR = dlsym(handle, "TIFFOpenOptionsSetWarningHandlerExtR")
        table.GetFieldDefaulted = dlsym(handle, "TIFFGetFieldDefaulted")
        guard table.ClientOpenExt != nil, table.OpenOptionsAlloc != nil, table.OpenOptionsFree != nil,
            table.OpenOptionsSetErrorHandlerExtR != nil, table.OpenOptionsSetWarningHandlerExtR != nil,
            table.GetFieldDefaulted != nil,
            let close = load("TIFFClose", as: Close.self),
            let numberOfDirectories = load("TIFFNumberOfDirectories", as: NumberOfDirectories.self),
            let setDirectory = load("TIFFSetDirectory", as: SetDirectory.self),
            let isTiled = load("TIFFIsTiled", as: IsTiled.self),
            let stripSize = load("TIFFStripSize64", as: ChunkSize.self),
            let tileSize = load("TIFFTileSize64", as: ChunkSize.self),
            let rgbaImageBegin = load("TIFFRGBAImageBegin", as: RGBAImageBegin.self),
            let rgbaImageGet = load("TIFFRGBAImageGet", as: RGBAImageGet.self),
            let rgbaImageEnd = load("TIFFRGBAImageEnd", as: RGBAImageEnd.self)
        else {
            dlclose(handle)
            return nil
        }
        self.table = table
        self.close = close
        self.numberOfDirectories = numberOfDirectories
        self.setDirectory = setDirectory
        self.isTiled = isTiled
        self.stripSize = stripSize
        self.tileSize = tileSize
        self.rgbaImageBegin = rgbaImageBegin
        self.rgbaImageGet = rgbaImageGet
        self.rgbaImageEnd = rgbaImageEnd
    }

    /// TIFFGetFieldDefaulted for a tag with one 32-bit value; 0 when it has none.
    func uint32(_ file: OpaquePointer, _ tag: Int32) -> UInt32 {
        withUnsafePointer(to: table) { gymcard_tiff_uint32($0, file, UInt32(tag)) }
    }
}
