import Imaging

/// How a percent looks in the heatmap, on terminals and in images: the app's thresholds and colours
/// (green under 50 %, orange to 75 %, maroon above; ARCHITECTURE §7), lighter towards the bottom of each band
/// so that differences inside the green band, where a gym spends most of its day, still show.
public enum HeatmapStyle {
    /// The app's colours.
    static let green = RGBImage.Colour(red: 31, green: 191, blue: 114)
    static let orange = RGBImage.Colour(red: 255, green: 106, blue: 45)
    static let maroon = RGBImage.Colour(red: 176, green: 26, blue: 93)
    /// Slots without enough data, and closed ones.
    static let noData = RGBImage.Colour(red: 235, green: 235, blue: 235)
    static let closed = RGBImage.Colour(red: 120, green: 120, blue: 120)

    /// The colour of a percent.
    public static func colour(_ percent: Double) -> RGBImage.Colour {
        let (band, low, high, lightest): (RGBImage.Colour, Double, Double, Double)
        switch percent {
        case ..<50: (band, low, high, lightest) = (green, 0, 50, 0.2)
        case ..<75: (band, low, high, lightest) = (orange, 50, 75, 0.55)
        default: (band, low, high, lightest) = (maroon, 75, 100, 0.7)
        }
        let position = min(1, max(0, (percent - low) / (high - low)))
        let strength = lightest + (1 - lightest) * position
        func mix(_ channel: UInt8) -> UInt8 {
            UInt8((255 - (255 - Double(channel)) * strength).rounded())
        }
        return RGBImage.Colour(red: mix(band.red), green: mix(band.green), blue: mix(band.blue))
    }

    /// A shade character for terminals without colour: `░` under 25 %, `▒` to 50 %, `▓` to 75 %, `█` above.
    public static func shade(_ percent: Double) -> Character {
        switch percent {
        case ..<25: return "░"
        case ..<50: return "▒"
        case ..<75: return "▓"
        default: return "█"
        }
    }

    /// The nearest of xterm's 256 colours (the 6×6×6 cube).
    static func palette256(_ colour: RGBImage.Colour) -> Int {
        func step(_ channel: UInt8) -> Int { Int((Double(channel) / 255 * 5).rounded()) }
        return 16 + 36 * step(colour.red) + 6 * step(colour.green) + step(colour.blue)
    }
}
