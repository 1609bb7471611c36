import CivilTime
import FoundationEssentials
import GymcardCore
import History
import Occupancy
import Storage
import Trends

/// The status bar's usual percent for the current half hour (`occupancy --cached --format waybar`'s
/// tooltip), kept small and current in `$XDG_CACHE_HOME/gymcard/usual-now` (``UsualNowCache``) so that
/// the status bar never opens the history: a year of history then costs what a day does.
///
/// The processes that write the history keep the file current: after `occupancy`, `--watch` or
/// `collect` recorded a poll, or `history import` added readings, they work the answer out again and
/// store it under the history files' version as it is once their connection is closed. The status bar
/// answers from the file while the version, the half hour and the answer's span hold; otherwise (a
/// writer that does not keep it, such as another campus's poll or an older gymcard, or the next half
/// hour) it works the answer out itself and keeps it when the files have settled.
public enum UsualNowFile {
    /// Each facility's usual percent for the current half hour; empty without a history or a known zone,
    /// never a failure.
    public static func usualPercents(_ facilities: [Facility], settings: OccupancySettings, context: Context)
        -> [String: Double]
    {
        guard let zone = try? context.zone(settings.timeZone) else { return [:] }
        let now = context.clock.now
        let paths = Paths(settings, context)
        // The system clock, not GYMCARD_TEST_NOW: whether the files have settled is about the kernel's stamps.
        guard let version = HistoryFileVersion.current(path: paths.history, realNow: Date()) else {
            return [:]
        }
        let keys = facilities.map(\.key)
        if let cached = UsualNowCache.load(paths.cache), cached.key == paths.key(version, settings),
            let percents = cached.usual.percents(for: keys, at: now, zone: zone)
        {
            return percents
        }
        guard let usual = compute(keys, paths: paths, zone: zone, now: now) else { return [:] }
        // Kept only when nothing wrote to the history while it was read, and the files' stamps have
        // settled (a later write is then sure to change the version).
        if version.isSettled,
            HistoryFileVersion.current(path: paths.history, realNow: Date())?.text == version.text
        {
            try? UsualNowCache(key: paths.key(version, settings), usual: usual).save(paths.cache)
        }
        return usual.percents
    }

    /// After this process wrote the history (and closed it): works the answer out again for every
    /// facility of `settings` and stores it under the files' version now. Under a lock beside the file,
    /// so that of two writers the one that stores last has read both writes. Failures are silent: the
    /// status bar then works the answer out itself.
    public static func refresh(settings: OccupancySettings, context: Context) {
        guard let zone = try? context.zone(settings.timeZone) else { return }
        let paths = Paths(settings, context)
        try? Directory.create(AtomicFile.directory(of: paths.cache), permissions: 0o700)
        _ = try? FileLock.withExclusiveLock(on: paths.cache + ".lock") {
            guard
                let usual = compute(
                    settings.facilities.map(\.key), paths: paths, zone: zone, now: context.clock.now),
                let version = HistoryFileVersion.current(path: paths.history, realNow: Date())
            else { return }
            try? UsualNowCache(key: paths.key(version, settings), usual: usual).save(paths.cache)
        }
    }

    /// The answer from the history; its connection is closed on return (closing may checkpoint, which
    /// changes the files' version).
    private static func compute(_ keys: [String], paths: Paths, zone: LocalTimeZone, now: Date) -> UsualNow? {
        guard let store = try? HistoryStore.openIfPresent(path: paths.history) else { return nil }
        return try? UsualNow.compute(from: store, facilities: keys, at: now, zone: zone, weeks: weeks)
    }

    /// The window the usual percent is taken over, as `trends` takes it by default.
    public static let weeks = HistoryWindow.usualWeeks

    /// The history and the cache file of a campus.
    private struct Paths {
        let history: String
        let cache: String

        init(_ settings: OccupancySettings, _ context: Context) {
            history = HistoryFiles.path(context.directories, campus: settings.campus)
            cache = HistoryFiles.usualNowCachePath(context.directories, campus: settings.campus)
        }

        func key(_ version: HistoryFileVersion, _ settings: OccupancySettings) -> UsualNowCache.Key {
            UsualNowCache.Key(history: history, version: version.text, zone: settings.timeZone, weeks: weeks)
        }
    }
}
