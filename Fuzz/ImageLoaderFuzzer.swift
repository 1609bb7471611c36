// libFuzzer entry point for the photo-loading path: format detection, TurboJPEG (scaled) and libpng
// decoding, the dimension limits. Compiled together with Sources/Imaging by Fuzz/run.sh.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageLoader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // The scan path: reduced-scale decode first, then full size for small symbols.
    if let image = try? ImageFile.decodeGray(bytes, minimumLongSide: 1800) {
        precondition(image.pixels.count == image.width * image.height)
        precondition(image.width <= ImageLimits.maximumSide && image.height <= ImageLimits.maximumSide)
    }
    _ = try? ImageFile.decodeGray(bytes)
    return 0
}
