import GymcardCore
import Imaging
import Occupancy
import TerminalText
import Trends

extension HistoryWindow {
    /// `trends --json`: every cell of `facilities`' heatmaps over the window.
    public func json(_ facilities: [HeatmapTextView.Facility]) -> String {
        TrendsJSON.document(
            facilities, weeks: weeks, timeZone: settings.timeZone, from: start, to: now, zone: zone, now: now)
    }

    /// `trends --png`: the heatmaps as one image.
    public func png(_ facilities: [HeatmapTextView.Facility]) throws(ImagingError) -> [UInt8] {
        try PNGCodec.encode(HeatmapImage.image(facilities, zone: zone, now: now))
    }

    /// `trends`: each facility's heatmap as text, a blank line between them.
    /// `columns` is the terminal's width (`nil`, no limit).
    public func lines(
        _ facilities: [HeatmapTextView.Facility], colour: HeatmapTextView.Colour, columns: Int? = nil
    ) -> [String] {
        let view = HeatmapTextView(colour: colour, columns: columns)
        return (isDemo ? DemoGym.banner.wrapped(columns: columns) : [])
            + Array(
                facilities.map { view.lines($0, weeks: weeks, zone: zone, now: now) }.joined(separator: [""]))
    }
}
