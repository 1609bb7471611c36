/// Full Innosoft Fusion occupancy pages (`GET <base>/FacilityOccupancy`) in the layouts ARCHITECTURE §12 and
/// `../shared/realworld/fusion-fixtures/SCRAPER-EVIDENCE.md` describe, written for the tests (no real
/// capture exists).
public enum FusionCampusPages {
    /// One card.
    public struct Card: Sendable {
        /// The facility ID.
        public var id: String
        /// The name (the page numbers it: `1. Name`).
        public var name: String
        /// `Max Occupancy`, when the card shows it.
        public var capacity: Int?
        /// A head count, or (with `percentOnly`) a percent.
        public var value: Int
        /// Whether the card shows only a percent.
        public var percentOnly: Bool

        /// Creates a card.
        public init(id: String, name: String, capacity: Int?, value: Int, percentOnly: Bool = false) {
            self.id = id
            self.name = name
            self.capacity = capacity
            self.value = value
            self.percentOnly = percentOnly
        }
    }

    /// The page layouts.
    public enum Layout: String, Sendable, CaseIterable {
        /// VT, UCSC, Waterloo: chart canvases (with a `-sm` copy), `Max Occupancy`, numbered headings.
        case charts
        /// UVA: `.facility-container`, no canvas, the head count in `.occupancy-count strong`.
        case countText
        /// TMU and Syracuse: `.occupancy-count` shows a percentage; no head count anywhere.
        case percentText
        /// A percent-only campus with charts: the canvas has only `data-ratio` (no `data-occupancy` or
        /// `data-remaining`) and the card says `Current Occupancy: <strong>42%</strong>`.
        case percentChart
    }

    /// A page of `cards` in `layout`, with the source's "last updated" time when given (`2:56 PM`).
    public static func page(_ cards: [Card], layout: Layout, lastUpdate: String? = "2:56 PM") -> String {
        let body = cards.enumerated().map { index, card in
            let heading =
                "<div class=\"occupancy-card-header\"><h2><strong>\(index + 1). \(card.name)</strong></h2></div>"
            let max =
                card.capacity.map {
                    "<p class=\"max-occupancy\">Max Occupancy: <strong>\($0)</strong></p>"
                } ?? ""
            switch layout {
            case .charts:
                let remaining = (card.capacity ?? card.value) - card.value
                let chart = { (suffix: String) in
                    """
                    <canvas class="occupancy-chart" id="occupancyChart-\(card.id)\(suffix)" data-ratio="0.50" \
                    data-occupancy="\(card.value)" data-remaining="\(remaining)" \
                    aria-labelledby="chartDesc-\(card.id)\(suffix)"></canvas>
                    """
                }
                return """
                    <div class="col" data-facilityid="\(card.id)"><div class="occupancy-card">\(heading)
                    <div class="occupancy-card-body">\(max)
                    <div class="d-none d-md-block">\(chart(""))</div><div class="d-md-none">\(chart("-sm"))</div>
                    <p class="occupancy-count">\(card.value)</p></div></div></div>
                    """
            case .countText:
                return """
                    <div class="facility-container" data-facilityid="\(card.id)">\(heading)\(max)
                    <p class="occupancy-count">Current: <strong>\(card.value)</strong></p></div>
                    """
            case .percentText:
                return """
                    <div class="col" data-facilityid="\(card.id)"><div class="occupancy-card">\(heading)\(max)
                    <p class="occupancy-count">\(card.value)%</p></div></div>
                    """
            case .percentChart:
                let ratio =
                    card.value < 10 ? "0.0\(card.value)" : card.value >= 100 ? "1.00" : "0.\(card.value)"
                let chart = { (suffix: String) in
                    "<canvas class=\"occupancy-chart\" id=\"occupancyChart-\(card.id)\(suffix)\" data-ratio=\"\(ratio)\"></canvas>"
                }
                return """
                    <div class="col" data-facilityid="\(card.id)"><div class="occupancy-card">\(heading)
                    <div class="occupancy-card-body">\(max)
                    <div class="d-none d-md-block">\(chart(""))</div><div class="d-md-none">\(chart("-sm"))</div>
                    <p class="occupancy-count">Current Occupancy: <strong>\(card.value)%</strong></p></div></div></div>
                    """
            }
        }
        let update = lastUpdate.map { "<p>Last updated <span id=\"last-update\">\($0)</span></p>" } ?? ""
        return """
            <!DOCTYPE html><html><head><title>Facility Occupancy | Campus Recreation</title></head><body>
            <nav><a href="/Account/Login">Sign In</a></nav><main><h1>Facility Occupancy</h1>\(update)
            <div class="row">\(body.joined(separator: "\n"))</div></main></body></html>
            """
    }

    /// UC Davis's Queue-Fair waiting room.
    public static let waitingRoom = """
        <!DOCTYPE html><html><head><title>You are in the queue</title>
        <script src="https://files.queue-fair.net/queue-fair-adapter.js"></script></head>
        <body><h1>You are now in line</h1><p>Thank you for your patience.</p></body></html>
        """

    /// A JavaScript shell: the page builds itself in the browser.
    public static let javaScriptShell = """
        <!DOCTYPE html><html><head><title>Campus Recreation</title></head><body><div id="root"></div>
        <noscript>You need to enable JavaScript to run this app.</noscript>
        <script src="/static/js/main.4f2c.js"></script></body></html>
        """

    /// A single-sign-on page in place of the occupancy page.
    public static let signIn = """
        <!DOCTYPE html><html><head><title>Sign In - Campus Recreation</title></head><body>
        <form method="post"><input name="username"><input type="password" name="password"></form></body></html>
        """
}
