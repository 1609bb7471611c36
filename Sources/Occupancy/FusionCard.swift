import FoundationEssentials
import Markup
import TextSearch

/// What one Fusion facility card (or a POST fragment) shows: the one reading of a card that `campus add`,
/// `facilities --discover` and `occupancy` share, so that they cannot disagree.
///
/// The card shows a head count (a chart's `data-occupancy`, or a bare number as its `.occupancy-count`)
/// or only a percent (`.occupancy-count` as `45%` or `Current Occupancy: <strong>42%</strong>`, the
/// screen-reader text `Current Occupancy: 17%`, or a chart with only `data-ratio`); a percent is never
/// turned into people.
public struct FusionCard: Sendable, Equatable {
    /// The number the card shows.
    public enum Shown: Sendable, Equatable {
        /// People inside, and places left when the chart says.
        case people(occupancy: Int, remaining: Int?)
        /// Only how full, in percent.
        case percent(Int)
    }

    /// The number the card shows.
    public var shown: Shown
    /// `Max Occupancy`, when the card says.
    public var maxOccupancy: Int?

    /// People or percent.
    public var measure: OccupancyMeasure {
        if case .percent = shown { return .percent }
        return .people
    }

    /// The capacity the card gives: `Max Occupancy`, else (UCSC, Waterloo) the chart's people and places
    /// left added up; not when the site clamps places left at 0 over capacity, and never for a percent.
    public var capacity: Int? {
        if let maxOccupancy { return maxOccupancy }
        guard case .people(let occupancy, let remaining?) = shown, remaining != 0, occupancy + remaining > 0
        else { return nil }
        return occupancy + remaining
    }

    /// The reading, out of `fallbackCapacity` when the card does not give its own.
    public func reading(fallbackCapacity: Int) -> OccupancyReading {
        switch shown {
        case .percent(let percent): return .percentOnly(percent)
        case .people(let occupancy, let remaining):
            return OccupancyReading(
                occupancy: occupancy, remaining: remaining, capacity: maxOccupancy ?? fallbackCapacity)
        }
    }

    /// Reads the card of facility `facilityID` in `html` (a card, a fragment, or a page without cards).
    /// `prefersPercent` (a facility kept as percent-only) takes a percent the card shows over its chart.
    ///
    /// - Throws: why there is no number: a word in its place, two copies that disagree, charts for
    ///   another facility, or a page with no numbers at all.
    public static func read(_ html: String, facilityID: String, prefersPercent: Bool = false)
        throws(OccupancyPageProblem) -> FusionCard
    {
        let maxOccupancy = OccupancyPageParser.maxOccupancy(in: html)
        if prefersPercent, let percent = shownPercent(in: html) {
            return FusionCard(shown: .percent(percent), maxOccupancy: maxOccupancy)
        }
        let charts = HTMLTags.find("canvas", in: html).compactMap(Chart.init)
        let wanted = facilityID.lowercased()
        var mine = charts.filter { $0.facilityID == wanted }
        if mine.isEmpty, !charts.isEmpty {
            // Charts without a recognisable facility ID at all: a page of an unknown shape.
            guard charts.allSatisfy({ $0.facilityID == nil }), charts.count <= 2 else {
                throw .otherFacility(id: facilityID)
            }
            mine = charts
        }
        if mine.contains(where: \.hasCount) {
            return FusionCard(shown: try people(from: mine), maxOccupancy: maxOccupancy)
        }
        // No head count on a chart: the card's text, else the chart's ratio.
        if let shown = FusionPage.occupancyCountText(in: html) {
            if let percent = FusionPage.percent(in: shown) {
                return FusionCard(shown: .percent(percent), maxOccupancy: maxOccupancy)
            }
            if let people = FusionPage.headCount(in: shown), people >= 0 {
                return FusionCard(
                    shown: .people(occupancy: people, remaining: nil), maxOccupancy: maxOccupancy)
            }
        }
        if let percent = FusionPage.currentOccupancyPercent(in: html)
            ?? mine.lazy.compactMap(\.ratioPercent).first
        {
            return FusionCard(shown: .percent(percent), maxOccupancy: maxOccupancy)
        }
        throw mine.isEmpty ? FusionPage.emptyPageProblem(html) : .noNumbers
    }

    /// The percent a card shows as text: its `.occupancy-count`, else the screen-reader text
    /// `Current Occupancy: P%`.
    static func shownPercent(in html: String) -> Int? {
        FusionPage.occupancyCountText(in: html).flatMap(FusionPage.percent(in:))
            ?? FusionPage.currentOccupancyPercent(in: html)
    }

    /// The head count on the charts, which must agree with their small-screen copies.
    private static func people(from charts: [Chart]) throws(OccupancyPageProblem) -> Shown {
        let values = try charts.map { chart throws(OccupancyPageProblem) in try chart.values() }
        guard let first = values.first else { throw .noNumbers }
        for other in values.dropFirst() {
            if other.occupancy != first.occupancy {
                throw .inconsistent(
                    "\(first.occupancy) people on one chart, \(other.occupancy) on the small-screen copy")
            }
            if let one = first.remaining, let two = other.remaining, one != two {
                throw .inconsistent("\(one) places left on one chart, \(two) on the small-screen copy")
            }
        }
        return .people(occupancy: first.occupancy, remaining: first.remaining)
    }

    /// A `<canvas>` that is an occupancy chart: `id="occupancyChart-<uuid>[-sm]"`, class `occupancy-chart`
    /// or a `data-occupancy` attribute.
    private struct Chart {
        var facilityID: String?
        var attributes: [String: String]

        init?(_ tag: HTMLTags.Tag) {
            let id = tag.attributes["id"]?.lowercased() ?? ""
            let isChart =
                id.hasPrefix("occupancychart") || (tag.attributes["class"] ?? "").contains("occupancy-chart")
                || tag.attributes["data-occupancy"] != nil
            guard isChart else { return nil }
            attributes = tag.attributes
            var rest = Substring(id)
            if rest.hasPrefix("occupancychart-") {
                rest = rest.dropFirst("occupancychart-".count)
            } else {
                rest = ""
            }
            if rest.hasSuffix("-sm") { rest = rest.dropLast(3) }
            facilityID = rest.isEmpty ? nil : String(rest)
        }

        /// Whether the chart carries a head count (`data-occupancy`), whatever its value.
        var hasCount: Bool { attributes["data-occupancy"] != nil }

        /// `data-ratio="0.42"` → 42; `nil` when absent or not a fraction.
        var ratioPercent: Int? {
            guard let text = attributes["data-ratio"]?.trimmed, let ratio = Double(text), ratio.isFinite,
                ratio >= 0, ratio <= 1.5
            else { return nil }
            return Int((ratio * 100).rounded())
        }

        func values() throws(OccupancyPageProblem) -> (occupancy: Int, remaining: Int?) {
            guard let occupancyText = attributes["data-occupancy"]?.trimmed else { throw .noNumbers }
            guard let occupancy = OccupancyPageParser.number(occupancyText), occupancy >= 0 else {
                throw .notANumber(occupancyText)
            }
            let remaining = attributes["data-remaining"].flatMap { OccupancyPageParser.number($0) }
            return (occupancy, remaining)
        }
    }
}
