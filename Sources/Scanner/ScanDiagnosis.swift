import FoundationEssentials
import Imaging

/// Why nothing trustworthy was read, worded to help a person take a better photo.
public enum ScanDiagnosis: Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The photo is very dark.
    case tooDark
    /// The photo has too few pixels for the bars to be resolved.
    case tooSmall(width: Int, height: Int)
    /// The photo is badly out of focus or shaken.
    case tooBlurred
    /// A QR code was found, but no Codabar barcode and no member ID.
    case onlyForeignQRCode
    /// Something barcode-like was read, but never confirmed.
    case unconfirmed
    /// Bar-like detail runs into the edge of the photo.
    case cutOff
    /// Nothing barcode-like at all.
    case nothingFound

    /// One line for a person: what is wrong with the photo and what to do.
    public var description: String {
        switch self {
        case .tooDark: return "the photo is very dark; take it in better light"
        case .tooSmall(let width, let height):
            return "the image is only \(width)×\(height) pixels; hold the card closer or use a larger photo"
        case .tooBlurred: return "the photo is very blurred; hold the camera steady and let it focus"
        case .onlyForeignQRCode:
            return
                "found a QR code that is not a member ID, but no Codabar barcode; photograph the barcode side"
        case .unconfirmed:
            return "a barcode was seen but could not be read reliably; take a sharper, straighter photo"
        case .cutOff: return "the barcode seems cut off at the edge of the photo; include the whole card"
        case .nothingFound:
            return "no barcode found; photograph the whole card, flat and in focus, without glare"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }

    /// The most useful explanation for a photo in which nothing was confirmed.
    static func diagnose(original: GrayImage, working: GrayImage, guard readGuard: ReadGuard) -> ScanDiagnosis
    {
        if readGuard.sawForeignQR && readGuard.trustedTexts.isEmpty { return .onlyForeignQRCode }
        if readGuard.untrustedCount > 0 { return .unconfirmed }
        if working.meanBrightness < 35 { return .tooDark }
        if Swift.max(original.width, original.height) < 400 {
            return .tooSmall(width: original.width, height: original.height)
        }
        if working.edgeStrength < 10 { return .tooBlurred }
        if barDetailTouchesEdge(working) { return .cutOff }
        return .nothingFound
    }

    /// Whether the columns (or rows) with the most bar-like detail reach the image's border.
    static func barDetailTouchesEdge(_ image: GrayImage) -> Bool {
        guard image.width >= 40, image.height >= 40 else { return false }
        func profile(alongRows: Bool) -> [Double] {
            let length = alongRows ? image.width : image.height
            let across = alongRows ? image.height : image.width
            return (0..<length - 1).map { position in
                var sum = 0
                for other in stride(from: 0, to: across, by: 2) {
                    let (x, y, nx, ny) =
                        alongRows
                        ? (position, other, position + 1, other) : (other, position, other, position + 1)
                    sum += abs(Int(image[x, y]) - Int(image[nx, ny]))
                }
                return Double(sum) / Double(across / 2)
            }
        }
        for alongRows in [true, false] {
            let values = profile(alongRows: alongRows)
            let sorted = values.sorted()
            let median = sorted[sorted.count / 2]
            let strong = sorted[sorted.count * 95 / 100]
            guard strong > 4 * Swift.max(median, 1) else { continue }
            let margin = Swift.max(2, values.count / 50)
            if values.prefix(margin).contains(where: { $0 >= strong })
                || values.suffix(margin).contains(where: { $0 >= strong })
            {
                return true
            }
        }
        return false
    }
}
