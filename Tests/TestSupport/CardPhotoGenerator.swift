import Codabar
import Glibc
import Imaging
import Symbologies
import Symbols

/// Makes deterministic photos of member cards in the situations people photograph them in: tight crops,
/// any rotation, 12 MP phone frames near/mid/far, perspective, lighting gradients, glare, low light with
/// heavy noise, 720p webcam frames, low JPEG quality — and photos with no barcode at all. The
/// photograph-like categories add what real cameras do: defocus (a disk point-spread), motion blur,
/// small frames with strong JPEG, narrow bars of 0.8–1.5 px, printed text and texture around the symbol,
/// 30–60° tilt, and barcode labels of other lengths and start/stop letters.
public struct CardPhotoGenerator {
    /// One generated photo and what a correct reader must report for it.
    public struct Photo: Sendable {
        /// Category name (`tight`, `phone-far`, `no-barcode`, …).
        /// The category name.
        public var category: String
        /// A file name, unique within a corpus.
        public var name: String
        /// The encoded file (JPEG or PNG).
        public var bytes: [UInt8]
        /// The normalized ID the photo shows, or `nil` for a photo without one.
        public var expectedID: String?
        /// Whether a good reader must read it (clean or moderately degraded) rather than may.
        public var mustRead: Bool
    }

    /// How one category is photographed.
    public struct Recipe: Sendable {
        /// The category name.
        public var category: String
        /// Photo width in pixels.
        public var frameWidth: Int
        /// Photo height in pixels.
        public var frameHeight: Int
        /// Card width as a fraction of the frame width.
        public var cardFraction: ClosedRange<Double>
        /// How the card is turned.
        public var rotationDegrees: ClosedRange<Double>
        /// How much narrower the far edge of the card is (0 = none).
        public var perspective: ClosedRange<Double>
        /// How much darker one side of the frame is (0 = even light).
        public var lightingGradient: ClosedRange<Double> = 0...0
        /// Whether a bright reflection falls on the card.
        public var glare: Bool = false
        /// Overall brightness factor (low = dark room).
        public var exposure: ClosedRange<Double> = 0.9...1.0
        /// Sensor noise, grey levels.
        public var noiseSigma: ClosedRange<Double>
        /// Optics or focus blur, pixels.
        public var blurSigma: ClosedRange<Double> = 0...0.4
        /// JPEG quality.
        public var jpegQuality: ClosedRange<Int>
        /// Whether the card carries a barcode.
        public var hasBarcode: Bool = true
        /// Whether a good reader must read it.
        public var mustRead: Bool
        /// Defocus: the radius of the disk point-spread, pixels.
        public var defocusRadius: ClosedRange<Double> = 0...0
        /// Motion blur: the length of the smear, pixels (any direction).
        public var motionLength: ClosedRange<Double> = 0...0
        /// When set, the symbol's narrow bar measures this many pixels in the frame (the card's size
        /// follows from it, instead of `cardFraction`).
        public var narrowBarPixels: ClosedRange<Double>?
        /// Printed text and texture around the card (a page, a desk with papers).
        public var clutter: Bool = false
        /// A barcode label (just the symbol and its digits, other lengths and start/stop letters) instead
        /// of a member card.
        public var label: Bool = false
    }

    /// The categories of the issue, at full size (12 MP phone frames).
    public static let fullRecipes: [Recipe] =
        [
            Recipe(
                category: "tight", frameWidth: 900, frameHeight: 570, cardFraction: 0.9...0.97,
                rotationDegrees: -3...3,
                perspective: 0...0.03, noiseSigma: 1...3, jpegQuality: 85...95, mustRead: true),
            Recipe(
                category: "rotated", frameWidth: 1200, frameHeight: 900, cardFraction: 0.5...0.6,
                rotationDegrees: 0...360,
                perspective: 0...0.05, noiseSigma: 2...4, jpegQuality: 85...95, mustRead: true),
            // A phone's optics and processing soften a 12 MP frame by a pixel or two.
            Recipe(
                category: "phone-near", frameWidth: 4000, frameHeight: 3000, cardFraction: 0.6...0.75,
                rotationDegrees: -10...10, perspective: 0...0.08, noiseSigma: 4...7, blurSigma: 1...2,
                jpegQuality: 85...95, mustRead: true),
            Recipe(
                category: "phone-mid", frameWidth: 4000, frameHeight: 3000, cardFraction: 0.35...0.45,
                rotationDegrees: -10...10, perspective: 0...0.08, noiseSigma: 4...7, blurSigma: 1...2,
                jpegQuality: 85...95, mustRead: true),
            Recipe(
                category: "phone-far", frameWidth: 4000, frameHeight: 3000, cardFraction: 0.14...0.2,
                rotationDegrees: -10...10, perspective: 0...0.08, noiseSigma: 4...7, blurSigma: 1...2,
                jpegQuality: 85...95, mustRead: false),
            Recipe(
                category: "perspective", frameWidth: 1600, frameHeight: 1200, cardFraction: 0.5...0.6,
                rotationDegrees: -15...15, perspective: 0.15...0.3, noiseSigma: 2...4, jpegQuality: 85...92,
                mustRead: false),
            Recipe(
                category: "lighting", frameWidth: 1600, frameHeight: 1200, cardFraction: 0.5...0.6,
                rotationDegrees: -8...8,
                perspective: 0...0.05, lightingGradient: 0.4...0.7, noiseSigma: 2...4, jpegQuality: 85...92,
                mustRead: true),
            Recipe(
                category: "glare", frameWidth: 1600, frameHeight: 1200, cardFraction: 0.5...0.6,
                rotationDegrees: -8...8,
                perspective: 0...0.05, glare: true, noiseSigma: 2...4, jpegQuality: 85...92, mustRead: false),
            Recipe(
                category: "low-light", frameWidth: 1600, frameHeight: 1200, cardFraction: 0.5...0.6,
                rotationDegrees: -8...8,
                perspective: 0...0.05, exposure: 0.2...0.3, noiseSigma: 10...16, jpegQuality: 80...90,
                mustRead: false),
            Recipe(
                category: "webcam-720p", frameWidth: 1280, frameHeight: 720, cardFraction: 0.45...0.6,
                rotationDegrees: -8...8, perspective: 0...0.06, noiseSigma: 3...5, blurSigma: 0.8...1.3,
                jpegQuality: 70...80, mustRead: true),
            Recipe(
                category: "jpeg-60", frameWidth: 1200, frameHeight: 900, cardFraction: 0.5...0.6,
                rotationDegrees: -8...8,
                perspective: 0...0.05, noiseSigma: 2...4, jpegQuality: 60...62, mustRead: true),
            Recipe(
                category: "no-barcode", frameWidth: 1600, frameHeight: 1200, cardFraction: 0.3...0.7,
                rotationDegrees: 0...360,
                perspective: 0...0.1, noiseSigma: 2...8, jpegQuality: 70...95, hasBarcode: false,
                mustRead: false),
        ] + photographLikeRecipes

    /// What real cameras do that clean renders lack (issue 14): small, soft, strongly compressed frames.
    public static let photographLikeRecipes: [Recipe] = [
        Recipe(
            category: "defocus", frameWidth: 640, frameHeight: 480, cardFraction: 0.5...0.6,
            rotationDegrees: -6...6, perspective: 0...0.05, noiseSigma: 2...4, jpegQuality: 30...50,
            mustRead: false, defocusRadius: 1...2.2, narrowBarPixels: 1.8...3),
        Recipe(
            category: "motion", frameWidth: 1024, frameHeight: 768, cardFraction: 0.5...0.6,
            rotationDegrees: -6...6, perspective: 0...0.05, noiseSigma: 2...4, jpegQuality: 30...50,
            mustRead: false, motionLength: 2...5, narrowBarPixels: 2...3.5),
        Recipe(
            category: "small-jpeg", frameWidth: 640, frameHeight: 480, cardFraction: 0.5...0.6,
            rotationDegrees: -5...5, perspective: 0...0.05, lightingGradient: 0...0.4, noiseSigma: 2...5,
            blurSigma: 0.5...0.9, jpegQuality: 20...40, mustRead: false, narrowBarPixels: 1.3...2.2),
        Recipe(
            category: "thin-bars", frameWidth: 1024, frameHeight: 768, cardFraction: 0.5...0.6,
            rotationDegrees: -3...3, perspective: 0...0.03, noiseSigma: 1...3, blurSigma: 0.3...0.6,
            jpegQuality: 70...90, mustRead: false, narrowBarPixels: 0.8...1.5),
        Recipe(
            category: "tilt-clutter", frameWidth: 640, frameHeight: 480, cardFraction: 0.5...0.6,
            rotationDegrees: 30...60, perspective: 0...0.05, noiseSigma: 2...4, blurSigma: 0.4...0.8,
            jpegQuality: 40...70, mustRead: false, narrowBarPixels: 1.6...2.6, clutter: true),
        Recipe(
            category: "label", frameWidth: 1024, frameHeight: 768, cardFraction: 0.35...0.5,
            rotationDegrees: -60...60, perspective: 0...0.08, lightingGradient: 0...0.4, noiseSigma: 2...5,
            blurSigma: 0.4...0.9, jpegQuality: 40...75, mustRead: false, narrowBarPixels: 1.5...3,
            clutter: true, label: true),
        // A small scan of a label (issue 14's 183×68 px example): nearly upright, narrow bars of 1 to 1.4
        // px, so that most bar edges fall inside a pixel and every scan line sees them as grey.
        Recipe(
            category: "tiny-scan", frameWidth: 360, frameHeight: 140, cardFraction: 0.5...0.6,
            rotationDegrees: -1.5...1.5, perspective: 0...0, noiseSigma: 1...3, blurSigma: 0.3...0.5,
            jpegQuality: 50...90, mustRead: false, narrowBarPixels: 1...1.4, clutter: true, label: true),
    ]

    /// The same categories with 12 MP frames reduced to 1600×1200, so a debug-build test stays fast.
    public static let testRecipes: [Recipe] = fullRecipes.map { recipe in
        var smaller = recipe
        if recipe.frameWidth == 4000 {
            smaller.frameWidth = 1600
            smaller.frameHeight = 1200
        }
        return smaller
    }

    private var generator: SeededGenerator

    /// A generator; the same seed always makes the same photos.
    public init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    /// `count` photos of each recipe.
    public mutating func corpus(recipes: [Recipe], perCategory count: Int) -> [Photo] {
        var photos: [Photo] = []
        for recipe in recipes {
            for index in 0..<count { photos.append(photo(recipe, name: "\(recipe.category)-\(index)")) }
        }
        return photos
    }

    /// One photo following a recipe, of the given ID or a random one.
    public mutating func photo(_ recipe: Recipe, name: String, id chosenID: String? = nil) -> Photo {
        let id = chosenID ?? (recipe.label ? randomLabelID() : randomID())
        let (card, narrow) =
            recipe.label ? renderLabel(id: id) : renderCard(id: recipe.hasBarcode ? id : nil)
        let bytes = photograph(card, narrowBarPixels: narrow, recipe: recipe)
        return Photo(
            category: recipe.category, name: name + ".jpg", bytes: bytes,
            expectedID: recipe.hasBarcode ? id : nil,
            mustRead: recipe.mustRead)
    }

    /// A white card carrying `content`'s symbol as gymcard's Symbols draws it, `moduleSize` pixels a
    /// module (a linear symbol's bars 50 modules tall, as `show` draws them), with a margin of 80 px: what
    /// ``photograph(_:narrowBarPixels:recipe:)`` takes for a card of any symbology.
    public static func symbolCard(_ content: BarcodeContent, moduleSize: Int = 8) throws -> GrayImage {
        let symbol = MatrixRaster.image(
            of: try ModuleMatrix(encoding: content), style: try BarcodeStyle(narrowBarWidth: moduleSize))
        var card = GrayImage(width: symbol.width + 160, height: symbol.height + 160, filledWith: 242)
        for y in 0..<symbol.height {
            for x in 0..<symbol.width where symbol[x, y] { card[80 + x, 80 + y] = 40 }
        }
        return card
    }

    /// A JPEG photo of any card image (a symbol another tool drew, say), taken as `recipe` says: placed
    /// turned into a scene, lit, blurred, noisy, compressed. `narrowBarPixels` is the width of the card's
    /// narrowest bar (or module) in its own pixels, for the recipe's bar width in the photo.
    public mutating func photograph(_ card: GrayImage, narrowBarPixels narrow: Int, recipe: Recipe) -> [UInt8]
    {
        var scene =
            recipe.clutter
            ? printedPage(width: recipe.frameWidth, height: recipe.frameHeight)
            : background(width: recipe.frameWidth, height: recipe.frameHeight)
        var cardWidth = Double(recipe.frameWidth) * uniform(recipe.cardFraction)
        if let bars = recipe.narrowBarPixels, narrow > 0 {
            cardWidth = Double(card.width) * uniform(bars) / Double(narrow)
        }
        place(card, into: &scene, width: cardWidth, recipe: recipe)
        applyLight(&scene, recipe: recipe)
        let blur = uniform(recipe.blurSigma)
        if blur > 0.05 { scene = scene.blurred(sigma: blur) }
        let defocus = uniform(recipe.defocusRadius)
        if defocus > 0.3 { scene = Self.defocused(scene, radius: defocus) }
        let smear = uniform(recipe.motionLength)
        if smear > 0.5 {
            scene = Self.smeared(
                scene, length: smear, angle: Double.random(in: 0..<Double.pi, using: &generator))
        }
        addNoise(&scene, sigma: uniform(recipe.noiseSigma))
        let quality = Int.random(in: recipe.jpegQuality, using: &generator)
        return (try? JPEGCodec.encode(scene, quality: quality)) ?? []
    }

    // MARK: - The card

    mutating func randomID() -> String {
        let digits = (0..<9).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
        if Int.random(in: 0..<5, using: &generator) > 0 { return "A\(digits)B" }
        let alphabet = Array("0123456789-$:/.+")
        let data = String(
            (0..<Int.random(in: 6...12, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator) ?? "0"
            })
        let letters = Array("ABCD")
        return String(letters[Int.random(in: 0..<4, using: &generator)]) + data
            + String(letters[Int.random(in: 0..<4, using: &generator)])
    }

    /// A label's data: another length (4–16) and any start and stop letters.
    mutating func randomLabelID() -> String {
        let alphabet = Array("0123456789-$:/.+")
        let data = String(
            (0..<Int.random(in: 4...16, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator) ?? "0"
            })
        let letters = Array("ABCD")
        return String(letters[Int.random(in: 0..<4, using: &generator)]) + data
            + String(letters[Int.random(in: 0..<4, using: &generator)])
    }

    /// A white label: the symbol with its digits underneath and a margin; also its narrow bar, pixels.
    mutating func renderLabel(id: String) -> (GrayImage, Int) {
        guard let symbol = try? CodabarSymbol(normalizing: id),
            let layout = try? CodabarLayout(ratio: [2.5, 3.0][Int.random(in: 0...1, using: &generator)])
        else { return (GrayImage(width: 400, height: 200), 0) }
        let narrow = 4
        guard
            let style = try? BarcodeStyle(
                narrowBarWidth: narrow, barHeight: Int.random(in: 15...30, using: &generator),
                showsText: true,
                layout: layout)
        else { return (GrayImage(width: 400, height: 200), 0) }
        let bars = CodabarRaster.image(of: symbol, style: style)
        var label = GrayImage(
            width: bars.width + 40, height: bars.height + 40,
            filledWith: UInt8.random(in: 225...250, using: &generator))
        let ink = UInt8.random(in: 10...60, using: &generator)
        for y in 0..<bars.height { for x in 0..<bars.width where bars[x, y] { label[20 + x, 20 + y] = ink } }
        return (label, narrow)
    }

    /// A white card 1000 px wide (ISO ID-1 proportions) with a header band, text-like lines, a photo box
    /// and, when given an ID, the barcode with its digits printed underneath; also the narrow bar's width
    /// in pixels (0 without a barcode).
    mutating func renderCard(id: String?) -> (GrayImage, Int) {
        let width = 1000
        let height = 631
        var card = GrayImage(
            width: width, height: height, filledWith: UInt8.random(in: 235...250, using: &generator))
        fill(
            &card, x: 0, y: 0, width: width, height: 110, value: UInt8.random(in: 60...120, using: &generator)
        )
        fill(
            &card, x: 40, y: 140, width: 200, height: 240,
            value: UInt8.random(in: 120...180, using: &generator))
        for line in 0..<5 {
            let length = Int.random(in: 200...600, using: &generator)
            fill(
                &card, x: 280, y: 150 + line * 45, width: length, height: 18,
                value: UInt8.random(in: 30...80, using: &generator))
        }
        guard let id, let symbol = try? CodabarSymbol(normalizing: id) else { return (card, 0) }
        let ratio = [2.5, 3.0][Int.random(in: 0...1, using: &generator)]
        guard let layout = try? CodabarLayout(ratio: ratio) else { return (card, 0) }
        let units = layout.elementWidths(of: symbol).reduce(0, +)
        let narrow = max(2, Int((Double(width) * 0.8 / units).rounded(.down)))
        guard
            let style = try? BarcodeStyle(
                narrowBarWidth: narrow, barHeight: 130 / narrow + 1, showsText: true, layout: layout)
        else { return (card, 0) }
        let bars = CodabarRaster.image(of: symbol, style: style)
        // Printed black on plastic is a dark grey, not 0.
        let ink = UInt8.random(in: 30...80, using: &generator)
        let left = (width - bars.width) / 2
        let top = height - bars.height - 25
        for y in 0..<bars.height {
            for x in 0..<bars.width where bars[x, y] && left + x < width { card[left + x, top + y] = ink }
        }
        return (card, narrow)
    }

    private func fill(_ image: inout GrayImage, x: Int, y: Int, width: Int, height: Int, value: UInt8) {
        for row in max(0, y)..<min(image.height, y + height) {
            for column in max(0, x)..<min(image.width, x + width) { image[column, row] = value }
        }
    }

    // MARK: - The scene

    /// A table-top: a smooth random gradient with some coarse texture.
    mutating func background(width: Int, height: Int) -> GrayImage {
        let base = Double.random(in: 60...170, using: &generator)
        let slopeX = Double.random(in: -40...40, using: &generator) / Double(width)
        let slopeY = Double.random(in: -40...40, using: &generator) / Double(height)
        let stripe = Double.random(in: 20...80, using: &generator)
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let grain = 8 * sin(Double(x + 3 * y) / stripe)
                pixels[y * width + x] = clamp(base + slopeX * Double(x) + slopeY * Double(y) + grain)
            }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    /// A printed page: paper with lines of words (dark dashes of word length) and a faint texture, the
    /// kind of clutter a label or a card photographed on a desk of papers sits in.
    mutating func printedPage(width: Int, height: Int) -> GrayImage {
        let paper = Double.random(in: 190...235, using: &generator)
        var page = GrayImage(width: width, height: height)
        let period = Double.random(in: 3...9, using: &generator)
        for y in 0..<height {
            for x in 0..<width { page[x, y] = clamp(paper + 4 * sin(Double(x * 7 + y * 3) / period)) }
        }
        let lineHeight = Int.random(in: 12...22, using: &generator)
        let textHeight = max(4, lineHeight / 2)
        var y = Int.random(in: 0..<lineHeight, using: &generator)
        while y < height {
            var x = Int.random(in: 0...20, using: &generator)
            while x < width {
                let word = Int.random(in: 10...60, using: &generator)
                let ink = UInt8.random(in: 20...90, using: &generator)
                fill(&page, x: x, y: y, width: word, height: textHeight, value: ink)
                x += word + Int.random(in: 5...12, using: &generator)
            }
            y += lineHeight
        }
        return page
    }

    /// Defocus: the mean over a disk of `radius` (the lens's point-spread), edges weighted by coverage.
    static func defocused(_ image: GrayImage, radius: Double) -> GrayImage {
        let reach = Int(radius.rounded(.up))
        var taps: [(Int, Int, Double)] = []
        for dy in -reach...reach {
            for dx in -reach...reach {
                let weight = max(0, min(1, radius + 0.5 - hypot(Double(dx), Double(dy))))
                if weight > 0 { taps.append((dx, dy, weight)) }
            }
        }
        let total = taps.reduce(0) { $0 + $1.2 }
        var output = image
        for y in 0..<image.height {
            for x in 0..<image.width {
                var sum = 0.0
                for (dx, dy, weight) in taps {
                    let sx = max(0, min(image.width - 1, x + dx))
                    let sy = max(0, min(image.height - 1, y + dy))
                    sum += Double(image.pixels[sy * image.width + sx]) * weight
                }
                output.pixels[y * image.width + x] = clamp(sum / total)
            }
        }
        return output
    }

    /// Motion blur: the mean along a line of `length` pixels at `angle` (radians).
    static func smeared(_ image: GrayImage, length: Double, angle: Double) -> GrayImage {
        let steps = max(2, Int(length.rounded()) + 1)
        let offsets = (0..<steps).map { step -> (Int, Int) in
            let t = (Double(step) / Double(steps - 1) - 0.5) * length
            return (Int((t * cos(angle)).rounded()), Int((t * sin(angle)).rounded()))
        }
        var output = image
        for y in 0..<image.height {
            for x in 0..<image.width {
                var sum = 0
                for (dx, dy) in offsets {
                    let sx = max(0, min(image.width - 1, x + dx))
                    let sy = max(0, min(image.height - 1, y + dy))
                    sum += Int(image.pixels[sy * image.width + sx])
                }
                output.pixels[y * image.width + x] = UInt8(sum / offsets.count)
            }
        }
        return output
    }

    /// Places the card by a homography: a rotated rectangle whose far edge is shortened for perspective.
    mutating func place(
        _ card: GrayImage, into scene: inout GrayImage, width cardWidth: Double, recipe: Recipe
    ) {
        var source = card
        var scale = cardWidth / Double(card.width)
        // Pre-shrink by area so a far card is not aliased by point sampling.
        if scale < 0.7 {
            let factor = Int((1 / scale).rounded(.down))
            source = card.downscaled(toMaximumSide: card.width / factor)
            scale = cardWidth / Double(source.width)
        }
        let w = Double(source.width) * scale
        let h = Double(source.height) * scale
        let angle = uniform(recipe.rotationDegrees) * Double.pi / 180
        let shrink = uniform(recipe.perspective)
        let centerX =
            Double(scene.width) / 2 + Double.random(in: -0.05...0.05, using: &generator) * Double(scene.width)
        let centerY =
            Double(scene.height) / 2 + Double.random(in: -0.05...0.05, using: &generator)
            * Double(scene.height)
        // Corners in card space, and where they land in the scene (top edge shortened by `shrink`).
        let local: [(Double, Double)] = [
            (-w / 2 * (1 - shrink), -h / 2), (w / 2 * (1 - shrink), -h / 2), (w / 2, h / 2), (-w / 2, h / 2),
        ]
        let sceneCorners = local.map { point in
            (
                centerX + point.0 * cos(angle) - point.1 * sin(angle),
                centerY + point.0 * sin(angle) + point.1 * cos(angle)
            )
        }
        let cardCorners: [(Double, Double)] = [
            (0, 0), (Double(source.width), 0), (Double(source.width), Double(source.height)),
            (0, Double(source.height)),
        ]
        guard let toCard = Homography(from: sceneCorners, to: cardCorners) else { return }
        let xs = sceneCorners.map(\.0)
        let ys = sceneCorners.map(\.1)
        let minX = max(0, Int(xs.min() ?? 0) - 1)
        let maxX = min(scene.width - 1, Int(xs.max() ?? 0) + 1)
        let minY = max(0, Int(ys.min() ?? 0) - 1)
        let maxY = min(scene.height - 1, Int(ys.max() ?? 0) + 1)
        guard minX < maxX, minY < maxY else { return }
        source.pixels.withUnsafeBufferPointer { pixels in
            for y in minY...maxY {
                for x in minX...maxX {
                    let (u, v) = toCard.apply(Double(x) + 0.5, Double(y) + 0.5)
                    guard u >= 0, v >= 0, u < Double(source.width), v < Double(source.height) else {
                        continue
                    }
                    scene[x, y] = sample(pixels, source.width, source.height, u - 0.5, v - 0.5)
                }
            }
        }
    }

    private func sample(
        _ pixels: UnsafeBufferPointer<UInt8>, _ width: Int, _ height: Int, _ x: Double, _ y: Double
    ) -> UInt8 {
        let x0 = max(0, min(width - 1, Int(x.rounded(.down))))
        let y0 = max(0, min(height - 1, Int(y.rounded(.down))))
        let x1 = min(width - 1, x0 + 1)
        let y1 = min(height - 1, y0 + 1)
        let fx = max(0, min(1, x - Double(x0)))
        let fy = max(0, min(1, y - Double(y0)))
        let top = Double(pixels[y0 * width + x0]) * (1 - fx) + Double(pixels[y0 * width + x1]) * fx
        let bottom = Double(pixels[y1 * width + x0]) * (1 - fx) + Double(pixels[y1 * width + x1]) * fx
        return clamp(top * (1 - fy) + bottom * fy)
    }

    /// Exposure, a lighting gradient across the frame, and glare (a bright, saturating spot).
    mutating func applyLight(_ scene: inout GrayImage, recipe: Recipe) {
        let exposure = uniform(recipe.exposure)
        let gradient = uniform(recipe.lightingGradient)
        let direction = Double.random(in: 0...(2 * Double.pi), using: &generator)
        let (dx, dy) = (cos(direction), sin(direction))
        var glare: (x: Double, y: Double, radius: Double)?
        if recipe.glare {
            glare = (
                Double(scene.width) * Double.random(in: 0.35...0.65, using: &generator),
                Double(scene.height) * Double.random(in: 0.4...0.7, using: &generator),
                Double(scene.width) * Double.random(in: 0.05...0.12, using: &generator)
            )
        }
        let width = Double(scene.width)
        let height = Double(scene.height)
        for y in 0..<scene.height {
            for x in 0..<scene.width {
                let position = ((Double(x) / width - 0.5) * dx + (Double(y) / height - 0.5) * dy) + 0.5
                var value = Double(scene[x, y]) * exposure * (1 - gradient * position)
                if let glare {
                    let distance = hypot(Double(x) - glare.x, Double(y) - glare.y) / glare.radius
                    value += 230 * exp(-distance * distance)
                }
                scene[x, y] = clamp(value)
            }
        }
    }

    /// Gaussian sensor noise (Box–Muller).
    mutating func addNoise(_ scene: inout GrayImage, sigma: Double) {
        guard sigma > 0 else { return }
        for index in scene.pixels.indices {
            let u1 = max(Double.leastNonzeroMagnitude, Double.random(in: 0..<1, using: &generator))
            let u2 = Double.random(in: 0..<1, using: &generator)
            let normal = sqrt(-2 * log(u1)) * cos(2 * Double.pi * u2)
            scene.pixels[index] = clamp(Double(scene.pixels[index]) + sigma * normal)
        }
    }

    private mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound == range.upperBound ? range.lowerBound : Double.random(in: range, using: &generator)
    }
}

private func clamp(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }

/// A plane projective transform from four point correspondences.
struct Homography {
    private let h: [Double]

    init?(from source: [(Double, Double)], to target: [(Double, Double)]) {
        // Solve the 8×8 system for h11…h32 (h33 = 1) by Gaussian elimination with partial pivoting.
        var matrix = [[Double]]()
        for ((x, y), (u, v)) in zip(source, target) {
            matrix.append([x, y, 1, 0, 0, 0, -u * x, -u * y, u])
            matrix.append([0, 0, 0, x, y, 1, -v * x, -v * y, v])
        }
        for column in 0..<8 {
            guard let pivot = (column..<8).max(by: { abs(matrix[$0][column]) < abs(matrix[$1][column]) }),
                abs(matrix[pivot][column]) > 1e-12
            else { return nil }
            matrix.swapAt(column, pivot)
            for row in 0..<8 where row != column {
                let factor = matrix[row][column] / matrix[column][column]
                for k in column..<9 { matrix[row][k] -= factor * matrix[column][k] }
            }
        }
        h = (0..<8).map { matrix[$0][8] / matrix[$0][$0] } + [1]
    }

    func apply(_ x: Double, _ y: Double) -> (Double, Double) {
        let w = h[6] * x + h[7] * y + h[8]
        return ((h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w)
    }
}
