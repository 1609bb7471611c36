import Imaging

/// The two decoding engines.
public enum DecodingEngine: String, Sendable, Hashable {
    /// libzbar, the first engine: every stage of the cascade.
    case zbar
    /// zxing-cpp, the second: a few stages at the end, where libzbar has read nothing it trusts.
    case zxing
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
        working: GrayImage, smoothed: Lazy<GrayImage>, regions: Lazy<[BarcodeRegion]>,
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
        stages.append(
            Stage(name: "zxing half", isAggressive: false, engine: .zxing) {
                let side = Swift.max(working.width, working.height)
                return ZXingReader.isAvailable && side >= 600
                    ? working.downscaled(toMaximumSide: side / 2) : nil
            })
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
