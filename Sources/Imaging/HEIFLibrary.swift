import CHeif
import Glibc

/// libheif, loaded on the first HEIC or AVIF photo with `dlopen` instead of linked: it brings HEVC and AV1
/// codecs (libde265, x265, aom, dav1d) that every other gymcard command, and the status bars that run
/// gymcard every few seconds, would otherwise load at start. The types and constants come from the CHeif
/// system-library target (heif.h).
struct HEIFLibrary: @unchecked Sendable {
    typealias Initialize = @convention(c) (OpaquePointer?) -> heif_error
    typealias ContextAllocate = @convention(c) () -> OpaquePointer?
    typealias ContextFree = @convention(c) (OpaquePointer?) -> Void
    typealias ReadFromMemory =
        @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int, OpaquePointer?) -> heif_error
    typealias PrimaryImageHandle =
        @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?) -> heif_error
    typealias HandleRelease = @convention(c) (OpaquePointer?) -> Void
    typealias HandleSide = @convention(c) (OpaquePointer?) -> Int32
    typealias DecodeImage =
        @convention(c) (
            OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?, heif_colorspace, heif_chroma,
            OpaquePointer?
        ) -> heif_error
    typealias ImageSide = @convention(c) (OpaquePointer?, heif_channel) -> Int32
    typealias PlaneReadOnly =
        @convention(c) (OpaquePointer?, heif_channel, UnsafeMutablePointer<Int32>?) -> UnsafePointer<UInt8>?
    typealias BitsPerPixelRange = @convention(c) (OpaquePointer?, heif_channel) -> Int32
    typealias HasChannel = @convention(c) (OpaquePointer?, heif_channel) -> Int32
    typealias ImageRelease = @convention(c) (OpaquePointer?) -> Void

    let contextAllocate: ContextAllocate
    let contextFree: ContextFree
    let readFromMemory: ReadFromMemory
    let primaryImageHandle: PrimaryImageHandle
    let handleRelease: HandleRelease
    let handleWidth: HandleSide
    let handleHeight: HandleSide
    let decodeImage: DecodeImage
    let imageWidth: ImageSide
    let imageHeight: ImageSide
    let planeReadOnly: PlaneReadOnly
    let bitsPerPixelRange: BitsPerPixelRange
    let hasChannel: HasChannel
    let imageRelease: ImageRelease

    /// The library, loaded and initialised once per process; `nil` when libheif is not installed.
    static let shared: HEIFLibrary? = HEIFLibrary()

    private init?() {
        guard let handle = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func load<Function>(_ name: String, as _: Function.Type) -> Function? {
            dlsym(handle, name).map { unsafeBitCast($0, to: Function.self) }
        }
        guard let contextAllocate = load("heif_context_alloc", as: ContextAllocate.self),
            let contextFree = load("heif_context_free", as: ContextFree.self),
            let readFromMemory = load("heif_context_read_from_memory_without_copy", as: ReadFromMemory.self),
            let primaryImageHandle = load(
                "heif_context_get_primary_image_handle", as: PrimaryImageHandle.self),
            let handleRelease = load("heif_image_handle_release", as: HandleRelease.self),
            let handleWidth = load("heif_image_handle_get_width", as: HandleSide.self),
            let handleHeight = load("heif_image_handle_get_height", as: HandleSide.self),
            let decodeImage = load("heif_decode_image", as: DecodeImage.self),
            let imageWidth = load("heif_image_get_width", as: ImageSide.self),
            let imageHeight = load("heif_image_get_height", as: ImageSide.self),
            let planeReadOnly = load("heif_image_get_plane_readonly", as: PlaneReadOnly.self),
            let bitsPerPixelRange = load("heif_image_get_bits_per_pixel_range", as: BitsPerPixelRange.self),
            let hasChannel = load("heif_image_has_channel", as: HasChannel.self),
            let imageRelease = load("heif_image_release", as: ImageRelease.self)
        else {
            dlclose(handle)
            return nil
        }
        // libheif 1.14 and later want heif_init before use (it registers the codec plugins); older ones
        // do not have it and need nothing.
        if let initialize = load("heif_init", as: Initialize.self) {
            guard initialize(nil).code == heif_error_Ok else {
                dlclose(handle)
                return nil
            }
        }
        self.contextAllocate = contextAllocate
        self.contextFree = contextFree
        self.readFromMemory = readFromMemory
        self.primaryImageHandle = primaryImageHandle
        self.handleRelease = handleRelease
        self.handleWidth = handleWidth
        self.handleHeight = handleHeight
        self.decodeImage = decodeImage
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.planeReadOnly = planeReadOnly
        self.bitsPerPixelRange = bitsPerPixelRange
        self.hasChannel = hasChannel
        self.imageRelease = imageRelease
    }
}
