import Imaging

extension BarcodeScanner {
    /// The cascade's stages, and the work several of them share, which can be begun early.
    struct Cascade {
        /// The stages, in order. Images are made lazily, only when a stage runs.
        var stages: [Stage]
        /// Makes, on another core while libzbar reads the plain image, what the next stages will look at:
        /// the located regions, the best one's crop and what libzbar reads in it (a libzbar scanner of its
        /// own: libzbar keeps no state outside a scanner), then the blurred working image. It only fills in
        /// values the stages would make themselves (``Lazy``), so what is read, and in which order, is the
        /// same with or without it; it saves the time of the first stage for every photo that needs the
        /// second. `shouldStop` is asked between the steps (the scan has ended).
        var warmUp: @Sendable (_ shouldStop: () -> Bool) -> Void
    }

    /// The cascade's stages, in order.
    func stages(photo: GrayImage, working: GrayImage, fullResolution: (() -> GrayImage?)? = nil) -> [Stage] {
        cascade(photo: photo, working: working, fullResolution: fullResolution).stages
    }

    /// The cascade for a photo (`working` is its working image); `reader` is the libzbar configuration the
    /// scan reads with, which the warm-up's read of the best region must share.
    func cascade(
        photo: GrayImage, working: GrayImage, fullResolution: (() -> GrayImage?)? = nil,
        reader: ZBarReader = ZBarReader()
    ) -> Cascade {
        var stages: [Stage] = []
        let isLarger = Swift.max(photo.width, photo.height) > Swift.max(working.width, working.height)
        let isSmall = Swift.max(working.width, working.height) < 800
        let smoothed = Lazy { working.blurred(sigma: 1) }
        stages.append(Stage(name: "plain", isAggressive: false) { working })
        // Crop each likely symbol upright out of the largest image there is. The locator looks at the
        // decoded photo (about 2000 px), where even a far card's bars are still two pixels wide; that
        // photo, blurred once, also serves the full-size stages. A photo no larger than the working image
        // is searched as it is: blurred, bars of about a pixel lost the gradient energy of their narrow
        // runs and were found in pieces (on 1247 photos: 15 more read, 2 fewer, no misread).
        let located = Lazy { isLarger ? photo.blurred(sigma: 1) : working }
        let regions = Lazy { BarcodeLocator.locate(in: located.value, limit: 2) }
        let largest = Lazy { () -> GrayImage in
            if let full = fullResolution?(), full.width > photo.width { return full }
            return photo
        }
        // A drawing larger than the photo decoded (a PNG of gymcard's or zint's over twice the decoded side,
        // reduced by averaging blocks): read at its own size when it is black and white there, up to 40 MP
        // (`show --scale 10` of an 81-character Code 39 is 11500 px wide; reduced, its bars were 1.6 px, and
        // 1 px in the working image). Nothing is decoded again for a photo: it is never mostly bilevel.
        if photo.isMostlyBilevel, fullResolution != nil {
            stages.append(
                Stage(name: "as drawn", isAggressive: false) {
                    let full = largest.value
                    guard full.width > photo.width, full.isBilevel, full.width * full.height <= 40_000_000
                    else { return nil }
                    return full
                })
        }
        let crops = (0..<2).map { rank in
            Lazy { () -> GrayImage? in
                guard rank < regions.value.count else { return nil }
                return Self.crop(regions.value[rank], foundIn: located.value, from: largest.value)
            }
        }
        // What libzbar reads in the best region's crop, made by the warm-up when there is a second core.
        let bestRegionReads = Lazy { crops[0].value.map { reader.decode($0) } }
        for rank in 0..<2 {
            stages.append(
                Stage(
                    name: "locate \(rank + 1)", isAggressive: false, isBestRegion: rank == 0, isCrop: true,
                    zbarReads: rank == 0 ? bestRegionReads : nil
                ) {
                    crops[rank].value
                })
        }
        stages.append(Stage(name: "blur", isAggressive: false) { smoothed.value })
        // The whole working image turned by the best region's angle: every scan line crosses the whole
        // symbol even when the locator found it in pieces too far apart to join (seen: a card at 56°
        // among printed text, in two pieces 35 px apart, that no crop and no sweep angle read).
        stages.append(
            Stage(name: "locate 1 turned", isAggressive: false) {
                guard let region = regions.value.first, abs(region.angleDegrees) > 5 else { return nil }
                return working.rotated(degrees: region.angleDegrees)
            })
        if isLarger {
            stages.append(Stage(name: "full-size", isAggressive: false) { located.value })
        }
        // Bars of about a pixel, which zbar's edge detector cannot separate: the best region cut upright
        // and stretched across 2, 3 and 4 times (Lanczos). Aggressive, as any upscale is: a read stands
        // only when two agree (or its check character holds). On the seeded corpus this took thin-bars
        // from 0 to 7 of 20 and small-jpeg from 10 to 11, with no misread (Benchmarks/scan.sh).
        let upright = Lazy { () -> GrayImage? in
            guard let region = regions.value.first else { return nil }
            return Self.crop(region, foundIn: located.value, from: largest.value)
        }
        for factor in [2, 3, 4] {
            stages.append(
                Stage(name: "locate 1 \(factor)x", isAggressive: true, isBestRegion: true, isCrop: true) {
                    upright.value?.stretchedSharply(by: factor)
                })
        }
        // A card tilted about 45° (clutter around it keeps the locator from it): before the costlier
        // stages below, which are for upright bars.
        stages.append(Stage(name: "rotate 45", isAggressive: false) { working.rotated(degrees: 45) })
        stages.append(Stage(name: "rotate -45", isAggressive: false) { working.rotated(degrees: -45) })
        // Soft bars (defocus, a far card, heavy JPEG): unsharp masking restores their edges. Aggressive, as
        // it can sharpen noise into bars too. The region's sharpened cuts cost a few milliseconds, so they
        // run before the finer cuts and the whole sharpened image, which cost tens.
        let sharpUpright = Lazy {
            upright.value?.sharpened(sigma: Self.sharpenSigma, amount: Self.sharpenAmount)
        }
        stages.append(
            Stage(name: "locate 1 sharp", isAggressive: true, isBestRegion: true, isCrop: true) {
                sharpUpright.value
            })
        for factor in [2, 3] {
            stages.append(
                Stage(name: "locate 1 sharp \(factor)x", isAggressive: true, isBestRegion: true, isCrop: true)
                {
                    sharpUpright.value?.stretchedSharply(by: factor)
                })
        }
        // Bars of about a pixel, cut out of the photo twice and three times finer than its pixels, sampled
        // with a Lanczos kernel along the located direction (bilinear sampling softens them). Aggressive.
        for factor in [2, 3] {
            stages.append(
                Stage(name: "locate 1 fine \(factor)x", isAggressive: true, isBestRegion: true, isCrop: true)
                {
                    guard let region = regions.value.first else { return nil }
                    return Self.fineCrop(region, foundIn: located.value, from: largest.value, factor: factor)
                })
        }
        stages.append(
            Stage(name: "sharpen", isAggressive: true) {
                working.sharpened(sigma: Self.sharpenSigma, amount: Self.sharpenAmount)
            })
        stages.append(
            Stage(name: "threshold", isAggressive: true) { smoothed.value.thresholded() })
        if isSmall {
            stages.append(Stage(name: "upscale 2x", isAggressive: true) { working.upscaled(by: 2) })
            // A tiny scan: a small, nearly upright symbol whose narrow bars are 1 to 1.4 px, so most of
            // its edges fall inside a pixel and the blurred image the locator looks at splits it in pieces.
            // The whole image stretched across (or down, for a symbol on its side) with a Lanczos kernel,
            // as the region's crops are. Tiny-scan photos (generate-corpus DIR 30 2026 tiny-scan): 5 -> 11 of 30 (zxing-cpp 6,
            // zbarimg 3); no new read or misread elsewhere in the seeded corpora, and no false positive on
            // 180 small photos without a barcode (text, stripes).
            for (factor, across) in [(2, true), (3, true), (2, false), (3, false)] {
                stages.append(
                    Stage(name: "stretch \(factor)x \(across ? "across" : "down")", isAggressive: true) {
                        across
                            ? working.stretchedSharply(by: factor)
                            : working.transposed().stretchedSharply(by: factor)
                    })
            }
        }
        for angle in [22.5, -22.5, 67.5, -67.5] {
            stages.append(
                Stage(name: "rotate \(angle)", isAggressive: false) { working.rotated(degrees: angle) })
        }
        if isLarger {
            // The full-size photo turned: for a small symbol at an angle that the working image is too
            // coarse to show. They look at the very image the locator searched, and the locator's measure
            // (gradient energy and coherence per block) does not depend on the angle: where it found nothing
            // bar-like, a turned copy has nothing bar-like either, and these six stages (half a second on a
            // 12 MP photo) are skipped. On the seeded corpora (seeds 2026, 7, 1 and 3: 900 photos) only the
            // photos without a barcode had no located region.
            for angle in [45.0, -45.0, 22.5, -22.5, 67.5, -67.5] {
                stages.append(
                    Stage(name: "full-size rotate \(angle)", isAggressive: false) {
                        regions.value.isEmpty ? nil : located.value.rotated(degrees: angle)
                    })
            }
        }
        // Not 0°: that is the "threshold" stage's very image, and a stage read twice confirmed its own
        // invention (a webcam photo of a UPC-A card read as `066781011185` by both; issue 39).
        for angle in [45.0, -45.0] {
            stages.append(
                Stage(name: "threshold rotate \(angle)", isAggressive: true) {
                    smoothed.value.rotated(degrees: angle).thresholded()
                })
        }
        // Interleaved 2 of 5 of 2 to 4 digits, which gymcard draws (libzbar's default minimum is 6: shorter
        // ones turn up inside QR codes and between Codabar bars). Last of the libzbar stages, on the photo as
        // it is, so that no other symbol is crossed with it; its reads are held to the footprint like
        // every ITF read (ARCHITECTURE §5).
        stages.append(
            Stage(name: "short itf", isAggressive: false, reader: .shortInterleaved2of5) { working })
        // The photo inverted: a symbol drawn light on dark (a phone in dark mode, a negated print), which
        // libzbar does not read as it is (zxing-cpp 3.x tries inverted images by default; 1.4 cannot: its own
        // stage follows). A tester's negated zint Codabar and QR code read nothing before. Last, so that only
        // a photo nothing else read pays for it (a look at the working image).
        stages.append(Stage(name: "inverted", isAggressive: false) { working.inverted() })
        return Cascade(
            stages: stages
                + Self.secondEngineStages(
                    largest: largest, working: working, smoothed: smoothed, regions: regions, crops: crops)
        ) { shouldStop in
            for step in [{ _ = regions.value }, { _ = bestRegionReads.value }, { _ = smoothed.value }] {
                guard !shouldStop() else { return }
                step()
            }
        }
    }
}
