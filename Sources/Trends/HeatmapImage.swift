import CivilTime
import FoundationEssentials
import Imaging

/// The heatmap as an image (`trends --png`): per facility a title, weekday labels, an hour ruler and
/// 7 × 48 coloured cells; slots without enough data pale grey, closed ones dark grey, the current slot
/// outlined; a legend at the bottom. Text in the built-in bitmap font.
public enum HeatmapImage {
    static let cell = 14
    static let gap = 1
    /// Between weekday rows: the labels are as tall as a cell (7 px glyphs at scale 2), so with `gap`
    /// alone one row's label touched the next one's.
    static let rowGap = 5
    static let scale = 2
    static let margin = 16
    static let labelWidth = 4 * (BitmapFont.glyphWidth + BitmapFont.spacing) * scale
    static let textHeight = BitmapFont.glyphHeight * scale
    static let ink = RGBImage.Colour(red: 40, green: 40, blue: 40)

    /// Draws the facilities one under the other.
    public static func image(_ facilities: [HeatmapTextView.Facility], zone: LocalTimeZone, now: Date)
        -> RGBImage
    {
        let gridWidth = WeeklyHeatmap.slotsPerDay * (cell + gap)
        let blockHeight = textHeight * 3 + 7 * (cell + rowGap) + margin * 2
        let legendHeight = textHeight + margin * 2
        let width = margin * 2 + labelWidth + gridWidth
        var image = RGBImage(width: width, height: margin + blockHeight * facilities.count + legendHeight)
        var top = margin
        let position = WeeklyHeatmap.position(of: now, zone: zone)
        for facility in facilities {
            image.draw(facility.name.uppercased(), x: margin, y: top, scale: scale, colour: ink)
            top += textHeight + margin / 2
            let left = margin + labelWidth
            for hour in stride(from: 0, to: 24, by: 3) {
                image.draw(String(hour), x: left + hour * 2 * (cell + gap), y: top, scale: scale, colour: ink)
            }
            top += textHeight + margin / 2
            for weekday in 0..<7 {
                let y = top + weekday * (cell + rowGap)
                image.draw(
                    WeeklyHeatmap.weekdayNames[weekday].uppercased(), x: margin,
                    y: y + (cell - textHeight) / 2,
                    scale: scale, colour: ink)
                for slot in 0..<WeeklyHeatmap.slotsPerDay {
                    let value = facility.heatmap.cells[weekday][slot]
                    let x = left + slot * (cell + gap)
                    let colour =
                        value.meanPercent.map(HeatmapStyle.colour)
                        ?? (value.closedReadings > 0 ? HeatmapStyle.closed : HeatmapStyle.noData)
                    image.fill(x: x, y: y, width: cell, height: cell, with: colour)
                    if weekday == position.weekday, slot == position.slot {
                        outline(&image, x: x, y: y)
                    }
                }
            }
            top += 7 * (cell + rowGap) + margin
        }
        drawLegend(&image, y: top)
        return image
    }

    private static func outline(_ image: inout RGBImage, x: Int, y: Int) {
        image.fill(x: x, y: y, width: cell, height: 2, with: ink)
        image.fill(x: x, y: y + cell - 2, width: cell, height: 2, with: ink)
        image.fill(x: x, y: y, width: 2, height: cell, with: ink)
        image.fill(x: x + cell - 2, y: y, width: 2, height: cell, with: ink)
    }

    private static func drawLegend(_ image: inout RGBImage, y: Int) {
        var x = margin
        let entries: [(RGBImage.Colour, String)] = [
            (HeatmapStyle.colour(20), "UNDER 50%"), (HeatmapStyle.colour(62), "50-74%"),
            (HeatmapStyle.colour(90), "75% AND OVER"), (HeatmapStyle.noData, "NO DATA"),
            (HeatmapStyle.closed, "CLOSED"),
        ]
        for (colour, label) in entries {
            image.fill(x: x, y: y, width: cell, height: cell, with: colour)
            x += cell + 6
            image.draw(label, x: x, y: y + (cell - textHeight) / 2, scale: scale, colour: ink)
            x += BitmapFont.width(of: label) * scale + margin
        }
    }
}
