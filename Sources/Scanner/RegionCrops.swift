import Imaging
import Synchronization

extension BarcodeScanner {
    /// Unsharp masking for the sharpen stages: the neighbourhood (pixels) and the strength.
    static let sharpenSigma = 4.0
    static let sharpenAmount = 3.0

    /// Longest crop handed to zbar; a larger region is sampled down to it.
    static let maximumCropLength = 2400.0

    /// The region cut upright out of `source` `factor` times finer than the source's pixels, with a
    /// Lanczos kernel and no blur; nil when that would be longer than ``maximumCropLength``.
    static func fineCrop(
        _ region: BarcodeRegion, foundIn analysed: GrayImage, from source: GrayImage, factor: Int
    )
        -> GrayImage?
    {
        let ratio = Double(source.width) / Double(Swift.max(1, analysed.width))
        let length = region.length * ratio
        // Only a short symbol gains from it; a long one (a 12 MP photo's card) is already finely sampled,
        // and cutting it finer would cost hundreds of milliseconds (seen: 738 ms on a 12 MP photo).
        guard length * Double(factor) <= maximumCropLength else { return nil }
        let scale = 1 / Double(factor)
        return source.extractedSharply(
            centerX: region.centerX * ratio, centerY: region.centerY * ratio,
            angleDegrees: region.angleDegrees,
            width: Int(length / scale), height: Int(region.height * ratio / scale),
            sourcePixelsPerPixel: scale)
    }

    /// The region, found in `analysed`, cut upright out of `source` (the same photo at any size), with
    /// bars vertical and a light blur against the noise of a full-size photo.
    static func crop(_ region: BarcodeRegion, foundIn analysed: GrayImage, from source: GrayImage)
        -> GrayImage
    {
        let factor = Double(source.width) / Double(Swift.max(1, analysed.width))
        let length = region.length * factor
        let scale = Swift.max(1, length / maximumCropLength)
        let crop = source.extracted(
            centerX: region.centerX * factor, centerY: region.centerY * factor,
            angleDegrees: region.angleDegrees,
            width: Int(length / scale), height: Int(region.height * factor / scale),
            sourcePixelsPerPixel: scale)
        return factor > 1.5 ? crop.blurred(sigma: 1) : crop
    }
}

/// A value computed on first use, so stages that never run cost nothing; safe to ask for from two
/// threads (the cascade's warm-up, ``BarcodeScanner/Cascade/warmUp``): the second waits for the first's
/// value. A value's making may ask for other values, never for its own, so the locks never wait in a
/// circle.
final class Lazy<Value>: @unchecked Sendable {
    private let make: () -> Value
    private let lock = Mutex(())
    private var stored: Value?

    init(_ make: @escaping () -> Value) { self.make = make }

    var value: Value {
        lock.withLock { _ in
            if let stored { return stored }
            let made = make()
            stored = made
            return made
        }
    }
}
