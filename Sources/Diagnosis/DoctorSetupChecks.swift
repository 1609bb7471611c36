import CampusFeature
import CardFeature
import CardVault
import Catima
import CivilTime
import Collector
import Configuration
import DynamicLoading
import Events
import FoundationEssentials
import Glibc
import GymcardCore
import History
import Imaging
import Occupancy
import OpeningHours
import Scanner
import Storage
import Symbols

/// `doctor`'s checks of the setup: the config file, the campus and its addresses, the collection timer
/// and the history.
extension Doctor {
    // MARK: Configuration

    static func configuration(_ context: Context) -> [Check] {
        let path = context.config.path
        let file: Data?
        do { file = try context.config.read() } catch {
            return [
                Check(
                    topic: "config", name: "config file", status: .problem, detail: error.description,
                    advice: "fix it, or move it aside to use the defaults")
            ]
        }
        guard let file else {
            return [
                Check(
                    topic: "config", name: "config file", status: .ok,
                    detail: "none (\(path)); defaults in use")
            ]
        }
        var checks: [Check] = []
        // Each library reads its section; a bad value there is the file's problem too.
        do {
            _ = try context.config.occupancySettings()
            _ = try context.config.eventsSettings()
            _ = try context.config.hoursSettings(campus: nil)
            _ = try ShowSettings(context: context)
            checks.append(
                Check(topic: "config", name: "config file", status: .ok, detail: "\(path) is valid"))
        } catch {
            checks.append(
                Check(
                    topic: "config", name: "config file", status: .problem, detail: error.description,
                    advice: "fix it, or move it aside to use the defaults"))
        }
        for unknown in ConfigFile.gymcardShape.unknownKeys(in: file) {
            checks.append(
                Check(
                    topic: "config", name: "unknown key", status: .note, detail: "\(path): \(unknown)",
                    advice: "remove or rename it"))
        }
        return checks
    }

    // MARK: Campus

    static func campus(_ settings: OccupancySettings, _ context: Context) -> [Check] {
        var checks = [
            Check(
                topic: "campus", name: "campus", status: .ok,
                detail:
                    "\(settings.campusName) (\(settings.facilities.count) facilities, \(settings.timeZone))"),
            Check(
                topic: "campus", name: "occupancy", status: .ok,
                detail: (settings.vendor == .fusion && settings.read == .fragments
                    ? settings.endpoint : settings.page).absoluteString + origin(settings.endpointOrigin)),
        ]
        switch settings.vendor {
        case .fusion: break
        case .goboard(let key):
            checks.append(
                Check(
                    topic: "campus", name: "vendor", status: .ok,
                    detail: "\(settings.vendor.vendor.displayName), key \(key) (published by the campus)"))
        case .waitz(let slug):
            checks.append(
                Check(
                    topic: "campus", name: "vendor", status: .ok,
                    detail: "\(settings.vendor.vendor.displayName), slug \(slug) (https://waitz.io/\(slug))"))
        }
        if !context.hasZone(settings.timeZone) {
            checks.append(
                Check(
                    topic: "campus", name: "time zone", status: .problem,
                    detail: "\(settings.timeZone) is not in \(context.zoneDirectory)",
                    advice: SystemData.timeZones.installCommand))
        }
        if let events = try? context.config.eventsSettings() {
            checks.append(
                Check(
                    topic: "campus", name: "events", status: .ok,
                    detail: events.url.absoluteString + origin(events.origin)))
        }
        if let hours = try? context.config.hoursSettings(campus: settings.campus) {
            checks.append(
                Check(
                    topic: "campus", name: "hours", status: .ok,
                    detail: settings.campus == nil
                        ? hours.url.absoluteString + origin(hours.urlOrigin)
                        : settings.vendor != .fusion && hours.sources.isEmpty
                            ? "none known: \(settings.vendor.vendor.displayName) publishes no opening hours"
                            : "\(hours.sources.count) facilities with weekly hours in the campus profile"))
        }
        return checks
    }

    private static func origin(_ origin: SettingOrigin) -> String {
        switch origin {
        case .builtIn: " (built in)"
        case .configFile(let key): " (\(key) in the config file)"
        case .environment(let variable): " (from \(variable))"
        }
    }

    // MARK: Collection

    /// The collection timer: the systemd user timer (its unit written by `collect --install`, then whether
    /// the user manager runs it), or a crontab line that runs `gymcard collect`.
    static func timer(_ context: Context, run: Notifier.Run) -> (check: Check, runs: Bool) {
        let timer = CollectorUnits.timerName
        let unit = Collecting.unitDirectory(context) + "/" + timer
        if FileStatus(unit) != nil {
            let active = run(["systemctl", "--user", "is-active", timer])
            let state = active?.output.split(separator: "\n").last.map(String.init) ?? ""
            if active?.status == 0 {
                return (
                    Check(topic: "collection", name: "timer", status: .ok, detail: "\(timer) is active"), true
                )
            }
            return (
                Check(
                    topic: "collection", name: "timer", status: .problem,
                    detail: "\(unit) is installed but "
                        + (active == nil
                            ? "systemctl is not installed"
                            : "the timer is \(state.isEmpty ? "not active" : state)"),
                    advice: "systemctl --user enable --now \(timer), or `gymcard collect --install` again"),
                false
            )
        }
        if let crontab = run(["crontab", "-l"]), crontab.status == 0,
            crontab.output.split(separator: "\n").contains(where: {
                !$0.hasPrefix("#") && $0.contains("gymcard") && $0.contains(" collect")
            })
        {
            return (
                Check(
                    topic: "collection", name: "timer", status: .ok,
                    detail: "a crontab line runs gymcard collect"), true
            )
        }
        return (
            Check(
                topic: "collection", name: "timer", status: .note, detail: "no timer collects the history",
                advice: "`gymcard collect --install` samples every 5 minutes"),
            false
        )
    }

    static func history(_ context: Context, settings: OccupancySettings, timerRuns: Bool) -> Check {
        let path = HistoryFiles.path(context.directories, campus: settings.campus)
        let now = context.clock.now
        let last: HistoryAttempt?
        var imported: (count: Int, newest: Date?) = (0, nil)
        do {
            // Looked at, not repaired: a damaged file stays where it is, for the commands that use it.
            guard let store = try HistoryStore.openIfPresent(path: path, readOnly: true) else {
                return Check(
                    topic: "history", name: "history", status: .note, detail: "none yet (\(path))",
                    advice: timerRuns ? nil : "`gymcard collect --install` starts one")
            }
            last = try store.lastTriedAttempt()
            if last == nil {
                let extents = try settings.facilities.map { facility throws(HistoryError) in
                    try store.extent(facility: facility.key)
                }
                imported = (extents.map(\.count).reduce(0, +), extents.compactMap(\.last).max())
            }
        } catch {
            let advice: String
            switch error {
            case .libraryMissing(let loading): advice = loading.library.installCommand
            case .newerVersion: advice = "update gymcard"
            case .damaged:
                advice =
                    "the next history command (trends, occupancy, collect) moves it aside and starts anew"
            default: advice = "check that the file and its folder are yours and writable"
            }
            return Check(
                topic: "history", name: "history", status: .problem, detail: "\(error)", advice: advice)
        }
        guard let last else {
            guard imported.count > 0, let newest = imported.newest else {
                return Check(
                    topic: "history", name: "history", status: .note,
                    detail: "\(path) has nothing recorded yet")
            }
            return Check(
                topic: "history", name: "history", status: .note,
                detail:
                    "\(path): \(imported.count) reading\(imported.count == 1 ? "" : "s") imported, the newest \(Age.ago(from: newest, to: now)); "
                    + "none recorded by gymcard yet",
                advice: timerRuns ? nil : "`gymcard collect --install` records one every 5 minutes")
        }
        let detail = "\(path): last recorded \(Age.ago(from: last.at, to: now))"
        if timerRuns, now.timeIntervalSince(last.at) > 3600 {
            return Check(
                topic: "history", name: "history", status: .problem,
                detail: detail + ", though the timer runs",
                advice: "`gymcard collect --status` shows the last failure")
        }
        return Check(topic: "history", name: "history", status: .ok, detail: detail)
    }
}
