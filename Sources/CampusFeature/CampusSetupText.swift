import FoundationEssentials
import GymcardCore
import JSONOutput
import Occupancy
import TerminalText
import TextSearch

extension CampusSetup {
    /// What `campus add` found, as a table: each facility's key, name, capacity, reading now (a percent
    /// for a page that shows only percents) and ID, under the profile's site, zone and way of reading.
    public static func table(_ profile: CampusProfile, found: [DiscoveredFacility]) -> String {
        let grouped = found.contains { $0.group != nil }
        let rows = zip(profile.facilities, found).map { facility, seen -> [String] in
            let now =
                seen.closed
                ? "closed"
                : seen.measure == .percent
                    ? seen.percent.map { "\($0)% (percent only)" } ?? "percent only"
                    : seen.occupancy.map { $0 == 1 ? "1 person" : "\($0) people" } ?? "-"
            return [facility.key, facility.name] + (grouped ? [seen.group ?? ""] : [])
                + [seen.capacity.map { "\($0)" } ?? "-", now, facility.id]
        }
        let heading =
            switch profile.vendor {
            case .fusion:
                "\(profile.name): \(profile.base.absoluteString) (\(profile.timeZone), read by \(profile.read.rawValue))"
            case .goboard:
                // The key is printed only where asked for (campus list, doctor).
                "\(profile.name): \(profile.vendor.vendor.displayName) (\(profile.timeZone), one GET of every zone)"
            case .waitz(let slug):
                "\(profile.name): \(profile.vendor.vendor.displayName) \(slug) (\(profile.timeZone), one GET of every zone)"
            }
        return heading.terminalSafe + "\n"
            + TextTable.text(
                header: ["KEY", "NAME"] + (grouped ? ["GROUP"] : []) + ["CAPACITY", "NOW", "ID"], rows: rows)
    }

    /// `campus list --json`: the campuses as a JSON array.
    public static func json(_ campuses: [Listing]) -> String { JSONText.line(campuses, fallback: "[]") }

    /// The campuses as `campus list` shows them, the one in use marked.
    public static func table(_ campuses: [Listing]) -> String {
        let rows = campuses.map {
            [
                $0.name + ($0.inUse ? " (in use)" : ""), $0.vendor, $0.site, $0.timeZone,
                // Purdue's 35 zones would make a line of 600 columns: the first few and how many.
                $0.shortNames.count > 8
                    ? $0.shortNames.prefix(3).joined(separator: ", ") + ", … (\($0.shortNames.count) in all)"
                    : $0.shortNames.joined(separator: ", "),
            ]
        }
        return TextTable.text(header: ["NAME", "VENDOR", "SITE", "TIME ZONE", "FACILITIES"], rows: rows)
    }
}

extension CampusZone {
    /// The campus's zone: asked with `ask` (`nil` when there is no one to ask, or no answer), the
    /// guess suggested and taken for an empty answer, a zone tzdata lacks asked again after `say`ing
    /// why; with no one to ask, the guess, said with its reason.
    public func choose(
        _ plan: CampusSetup.Plan, ask: ((String) -> String?)?, say: (String) -> Void,
        problem: (CampusSetupProblem) -> String
    ) -> String {
        let (guess, reason) = guess(known: plan.known, base: plan.base)
        if let ask {
            // A GoBoard or Waitz campus is asked by its name: the host is the vendor's, not the campus's.
            let host = plan.vendor == .fusion ? plan.base.host ?? "the campus" : plan.name
            while let answer = ask("Time zone of \(host) [\(guess)]: ") {
                let text = answer.trimmed
                if text.isEmpty { return guess }
                do throws(CampusSetupProblem) {
                    try check(text)
                    return text
                } catch { say(problem(error)) }
            }
        }
        say(
            "time zone: \(guess) (\(reason)); if that is wrong, remove the campus and add it again with --time-zone"
        )
        return guess
    }
}
