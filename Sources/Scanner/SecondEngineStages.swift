import Imaging

/// The two decoding engines.
public enum DecodingEngine: String, Sendable, Hashable {
    /// libzbar, the first engine: every stage of the cascade.
    case zbar
    /// zxing-cpp, the second: a few stages at the end, where libzbar has read nothing it trusts.
    case zxing
    /// libdmtx, for Data Matrix alone: one stage after zxing-cpp's (``DataMatrixReader``).
    case dmtx
}

extension BarcodeScanner {
    /// The second engine's stages, after every libzbar stage: the scanner stops at the first trusted read,
    /// so zxing-cpp looks only at photos libzbar could not read (or, with `findAll`, at every photo).
    ///
    /// zxing-cpp reads some photos libzbar misses behind the whole cascade (a tiny scan with narrow bars of
    /// about a pixel, a soft phone photo), but here zxing-cpp scans only rows (see ``ZXingReader``). So it is handed
    /// the located regions cut upright, the working image as it is, and turned by the best region's angle.
    /// They run even when the time budget is spent, so that a slow photo still gets them.
    ///
    /// The helper is started here, on the first photo that gets this far: a photo libzbar reads never pays
    /// for it. When it is not installed these stages are skipped and nothing is said.
    static func secondEngineStages(
        largest: Lazy<GrayImage>, working: GrayImage, smoothed: Lazy<GrayImage>,
        regions: Lazy<[BarcodeRegion]>,
        crops: [Lazy<GrayImage?>]
    )
        -> [Stage]
    {
        var stages: [Stage] = []
        for (rank, crop) in crops.enumerated() {
            stages.append(
                Stage(name: "zxing locate \(rank + 1)", isAggressive: false, engine: .zxing, isCrop: true) {
                    ZXingReader.isAvailable ? crop.value : nil
                })
        }
        // The working image as it is, too: the locator's region can be off on a tiny scan (zxing-codabar-1's
        // 14.png, 183×68, reads only so).
        stages.append(
            Stage(name: "zxing plain", isAggressive: false, engine: .zxing) {
                ZXingReader.isAvailable ? working : nil
            })
        // The working image at half its size: zxing-cpp 1.4 found no Aztec code of large modules in a photo
        // of a card lit from one side, and read it at half (3.x reads it as it is: its own downscaled pass,
        // which 1.4's assertion rules out; see ``ZXingReader``). A 640 px webcam frame's PDF417 halved was
        // corrected into another text, which one stage alone read: ``ReadGuard`` refuses it (issue 39).
        // A quarter, for a phone photo taken near, where the Aztec's modules are a dozen pixels in the working
        // image: zxing-cpp 1.4 read two such of four generated 12 MP photos at a quarter (250 px) and at no
        // size from a third up (issue 39).
        for (name, divisor, smallest) in [("zxing half", 2, 600), ("zxing quarter", 4, 1000)] {
            stages.append(
                Stage(name: name, isAggressive: false, engine: .zxing) {
                    let side = Swift.max(working.width, working.height)
                    return ZXingReader.isAvailable && side >= smallest
                        ? working.downscaled(toMaximumSide: side / divisor) : nil
                })
        }
        // The working image blurred a little: a second look for what only zxing-cpp reads (a UPC-E of number
        // system 1, which libzbar does not decode), whose read never stands alone (see ``ReadGuard``).
        stages.append(
            Stage(name: "zxing blur", isAggressive: false, engine: .zxing) {
                ZXingReader.isAvailable ? smoothed.value : nil
            })
        // A drawing (black and white only: a terminal's blocks captured, a PNG with a caption) cut to what is
        // drawn on it, with a margin: zxing-cpp 1.4 found no 165 px Aztec code in the middle of a 693×550
        // capture of a terminal, and read it so cut. The locator above looks for bars, not 2D symbols.
        stages.append(
            Stage(name: "zxing drawn", isAggressive: false, engine: .zxing) {
                guard ZXingReader.isAvailable, working.isBilevel else { return nil }
                return Self.drawnPart(of: working)
            })
        // A small image (or a drawing) twice as large, each pixel repeated: zxing-cpp 1.4 reads no Data
        // Matrix, Aztec or PDF417 whose modules are a pixel (`show --scale 1`; zxing-cpp 3.x reads them as
        // they are), and reads them so (a bilinear enlargement greys them: a 28×14 Data Matrix still did
        // not read). A 1020 px Code 93 at a pixel a bar, which libzbar does not read, gets its second
        // look here.
        stages.append(
            Stage(name: "zxing 2x", isAggressive: true, engine: .zxing) {
                let side = Swift.max(working.width, working.height)
                return ZXingReader.isAvailable && (side < 800 || (side <= 4000 && working.isBilevel))
                    ? working.repeated(by: 2) : nil
            })
        stages.append(
            Stage(name: "zxing turned", isAggressive: false, engine: .zxing) {
                guard ZXingReader.isAvailable, let region = regions.value.first, abs(region.angleDegrees) > 5
                else { return nil }
                return working.rotated(degrees: region.angleDegrees)
            })
        // The same inverted image (see the libzbar stage "inverted"), for the 2D symbols and what libzbar
        // alone cannot confirm. libdmtx reads light on dark itself.
        stages.append(
            Stage(name: "zxing inverted", isAggressive: false, engine: .zxing) {
                ZXingReader.isAvailable ? working.inverted() : nil
            })
        // libdmtx, last: it finds a Data Matrix's finder at any angle, where zxing-cpp 1.4 missed soft,
        // turned and far ones (8 of 128 generated photos; ARCHITECTURE §14). Its finder is sensitive to the
        // modules' size in pixels: far phone photos read at one size and not at another, so it looks at the
        // working image and at the largest image there is, brought to at most 1500 px. Each look at a photo
        // with no Data Matrix costs up to its bound of grid points: 11 ms on a gradient, 0.4–0.9 s on noise
        // or clutter (``DataMatrixReader``).
        stages.append(
            Stage(name: "dmtx", isAggressive: false, engine: .dmtx) {
                DataMatrixReader.isAvailable ? working : nil
            })
        stages.append(
            Stage(name: "dmtx large", isAggressive: false, engine: .dmtx) {
                guard DataMatrixReader.isAvailable else { return nil }
                let image = largest.value
                let side = Swift.max(image.width, image.height)
                guard 4 * side >= 5 * Swift.max(working.width, working.height) else { return nil }
                return side > 1500 ? image.downscaled(toMaximumSide: 1500) : image
            })
        return stages
    }

    /// The part of a black-and-white image that holds every dark pixel, on white with a margin of a tenth
    /// of its size (at least 8 px) all round, beyond the image's edges where it runs into them (zint draws a
    /// Data Matrix with no quiet zone unless asked: zxing-cpp 1.4 read none so, 3.x every one); `nil` when
    /// that is about the image already.
    static func drawnPart(of image: GrayImage) -> GrayImage? {
        var (left, top, right, bottom) = (image.width, image.height, -1, -1)
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixels[y * image.width + x] == 0 {
                left = Swift.min(left, x)
                right = Swift.max(right, x)
                top = Swift.min(top, y)
                bottom = Swift.max(bottom, y)
            }
        }
        guard right >= left else { return nil }
        let margin = Swift.max(8, Swift.max(right - left, bottom - top) / 10)
        let runsIntoEdge =
            left < margin || top < margin || right >= image.width - margin || bottom >= image.height - margin
        let (width, height) = (right - left + 1 + 2 * margin, bottom - top + 1 + 2 * margin)
        guard runsIntoEdge || 5 * width * height < 4 * image.width * image.height else { return nil }
        var part = GrayImage(width: width, height: height, filledWith: 255)
        for y in top...bottom {
            for x in left...right { part[margin + x - left, margin + y - top] = image[x, y] }
        }
        return part
    }
}
