/// Occupancy fragments in the shape ARCHITECTURE §7 describes (Innosoft Fusion's `GetFacilityData` answer).
public enum OccupancyFragments {
    /// How attribute values are quoted.
    public enum Quoting: Sendable, CaseIterable {
        case double, single, none
    }

    /// A fragment with the main chart and its `-sm` duplicate.
    ///
    /// `occupancy`/`remaining` are written as given (so `"1,035"` or `"closed"` can be tested);
    /// `smallOccupancy` makes the duplicate disagree; `maxOccupancy` nil leaves the label out.
    public static func fragment(
        id: String, name: String, occupancy: String, remaining: String?, maxOccupancy: String?,
        quoting: Quoting = .double, smallOccupancy: String? = nil, ratio: String = "0.14"
    ) -> String {
        func attribute(_ name: String, _ value: String) -> String {
            switch quoting {
            case .double: return "\(name)=\"\(value)\""
            case .single: return "\(name)='\(value)'"
            case .none: return "\(name)=\(value)"
            }
        }
        func canvas(suffix: String, occupancy: String) -> String {
            var attributes = [
                attribute(
                    "class", quoting == .none ? "occupancy-chart" : "occupancy-chart d-none d-md-block"),
                attribute("id", "occupancyChart-\(id)\(suffix)"), attribute("data-ratio", ratio),
                attribute("data-occupancy", occupancy),
            ]
            if let remaining { attributes.append(attribute("data-remaining", remaining)) }
            return "<canvas " + attributes.joined(separator: " ") + " width=\"200\" height=\"200\"></canvas>"
        }
        let max = maxOccupancy.map {
            """
                <p class="max-occupancy">Max Occupancy: <strong>\($0)</strong></p>
                <p class="occupancy-summary">Max Occupancy: \($0), Current Occupancy: 14%</p>
            """
        }
        return """
            <div class="facility-container occupancy-card" data-facilityid="\(id)">
              <div class="occupancy-card-header"><h2><strong>\(name)</strong></h2></div>
              <div class="occupancy-chart-container">
                \(canvas(suffix: "", occupancy: occupancy))
                \(canvas(suffix: "-sm", occupancy: smallOccupancy ?? occupancy))
              </div>
            \(max ?? "")
              <p id="last-update">Last Updated: 11/21/2026 10:05 AM</p>
            </div>
            """
    }

    /// A sign-in page, as a single-sign-on redirect would show.
    public static let signInPage = """
        <!DOCTYPE html><html><head><title>Sign In</title></head><body>
        <form method="post" action="/Account/Login"><h1>Sign in to RecSports</h1>
        <input type="text" name="username"><input type="password" name="password">
        <button type="submit">Log in</button></form></body></html>
        """

    /// The platform's maintenance page.
    public static let temporarilyUnavailable = """
        <html><body><h1>We'll be right back</h1>
        <p>Facility occupancy is temporarily unavailable. Please check back later.</p></body></html>
        """

    /// The full occupancy page (`GET /facilityoccupancy`) listing the given cards.
    public static func fullPage(_ cards: [(id: String, name: String, capacity: Int, occupancy: Int)])
        -> String
    {
        let body = cards.map {
            fragment(
                id: $0.id, name: $0.name, occupancy: "\($0.occupancy)",
                remaining: "\($0.capacity - $0.occupancy)",
                maxOccupancy: "\($0.capacity)")
        }
        return "<!DOCTYPE html><html><head><title>Facility Occupancy</title></head><body><main>"
            + body.joined(separator: "\n") + "</main></body></html>"
    }
}
