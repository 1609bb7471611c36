import CardVault
import Catima
import CivilTime
import Collector
import Configuration
import Events
import FoundationEssentials
import Glibc
import History
import Imaging
import Occupancy
import OpeningHours
import Scanner
import Storage
import Symbols

/// `doctor`'s checks: where gymcard keeps its files, which optional libraries load, whether the config
/// file is valid, which campus and addresses are in use, whether the collection timer runs and when the
/// history last recorded. Each check says what it found and, when something is off, what to do.
///
/// Nothing here touches the network, and nothing reads the stored card: its files are looked at (they
/// exist, their modes), never opened, so no check can show the card's ID.
public enum Doctor {
    /// One check's outcome.
    public struct Check: Sendable, Equatable, Encodable {
        /// How a check came out.
        public enum Status: String, Sendable, Encodable {
            /// All is well.
            case ok
            /// Not set up, or an optional part is missing: gymcard works, with less (exit 0).
            case note
            /// Something is wrong and should be fixed (exit 1).
            case problem
        }

        /// What was checked: `files`, `libraries`, `config`, `campus`, `collection` or `history`.
        public var topic: String
        /// The thing checked, such as `card`, `libzbar` or `timer`.
        public var name: String
        /// How it came out.
        public var status: Status
        /// What was found.
        public var detail: String
        /// What to do, when something is to be done.
        public var advice: String?

        /// A check.
        public init(topic: String, name: String, status: Status, detail: String, advice: String? = nil) {
            self.topic = topic
            self.name = name
            self.status = status
            self.detail = detail
            self.advice = advice
        }
    }

    /// An optional library and how to load it.
    public struct Library: Sendable {
        /// Its name, as the checks show it.
        public var name: String
        /// What it is for.
        public var purpose: String
        /// The Debian package that installs it.
        public var package: String
        /// Whether gymcard without it cannot do its part at all (a problem) rather than do less (a note).
        public var essential: Bool
        /// Loads it (the product's own `dlopen` loader) and says whether that worked.
        public var loads: @Sendable () -> Bool

        /// A library.
        public init(
            name: String, purpose: String, package: String, essential: Bool = false,
            loads: @escaping @Sendable () -> Bool
        ) {
            self.name = name
            self.purpose = purpose
            self.package = package
            self.essential = essential
            self.loads = loads
        }

        /// The libraries gymcard loads on first use, each through the loader the command uses. libqrencode
        /// is linked (every `--qr` needs it), so it is not among them.
        public static let product: [Library] = [
            Library(
                name: "libzbar", purpose: "scan reads barcodes", package: "libzbar0", essential: true,
                loads: { ZBarReader.isAvailable }),
            Library(
                name: "zxing", purpose: "scan's second reader (zxing-cpp)",
                package: "libzxing2", loads: { ZXingReader.isAvailable }),
            Library(
                name: "libheif", purpose: "scan reads HEIC and AVIF photos", package: "libheif1",
                loads: { HEIFCodec.isAvailable }),
            Library(
                name: "libwebp", purpose: "scan reads WebP images", package: "libwebp7",
                loads: { WebPCodec.isAvailable }),
            Library(
                name: "libtiff", purpose: "scan reads TIFF images", package: "libtiff6",
                loads: { TIFFCodec.isAvailable }),
            Library(
                name: "libzint", purpose: "cards in symbologies other than Codabar", package: "libzint2.11",
                loads: { ModuleMatrix.isZintAvailable }),
            Library(
                name: "libzip", purpose: "Catima's export zips", package: "libzip4",
                loads: { CatimaZip.isAvailable }),
        ]
    }

    /// Every check, in the order `doctor` prints them. `run` runs a local program (`systemctl --user`,
    /// `crontab -l`) and returns its status and output, or `nil` when it is not installed.
    public static func checks(_ context: Context, libraries: [Library] = Library.product, run: Notifier.Run)
        -> [Check]
    {
        var checks = folders(context.directories)
        checks += card(context.directories)
        checks += libraries.map(library)
        checks += configuration(context)
        let settings: OccupancySettings?
        do {
            settings = try CampusSetup(context: context).settings(campus: nil)
            if let settings { checks += campus(settings, context) }
        } catch {
            settings = nil
            checks.append(
                Check(
                    topic: "campus", name: "campus", status: .problem, detail: "\(error)",
                    advice: "`gymcard campus list` shows the campuses; `gymcard campus use vt` goes back"))
        }
        let timer = timer(context, run: run)
        checks.append(timer.check)
        if let settings { checks.append(history(context, settings: settings, timerRuns: timer.runs)) }
        return checks
    }

    /// Whether any check found a problem (`doctor` then exits 1).
    public static func hasProblems(_ checks: [Check]) -> Bool { checks.contains { $0.status == .problem } }

    // MARK: Files

    static func folders(_ directories: XDGDirectories) -> [Check] {
        [
            ("data", directories.dataHome, "the stored card"),
            ("config", directories.configHome, "config.json and campus profiles"),
            ("state", directories.stateHome, "occupancy readings and history"),
            ("cache", directories.cacheHome, "events, hours and status-bar caches"),
        ].map { name, home, holds in
            let folder = home + "/gymcard"
            return Check(
                topic: "files", name: name, status: .ok,
                detail: folder + " (" + holds + (FileStatus(folder) == nil ? "; not created yet)" : ")"))
        }
    }

    static func card(_ directories: XDGDirectories) -> [Check] {
        let store = CardStore(directories: directories)
        var checks: [Check] = []
        if let folder = FileStatus(store.directory), folder.mode & 0o077 != 0 {
            checks.append(
                Check(
                    topic: "files", name: "card folder", status: .problem,
                    detail: "\(store.directory) is mode \(folder.octalMode); others can list it",
                    advice: "chmod 700 \(store.directory)"))
        }
        let files = [store.encryptedPath, store.plainPath].flatMap { [$0, $0 + ".bak"] }
        for path in files {
            guard let file = FileStatus(path), file.mode & 0o077 != 0 else { continue }
            checks.append(
                Check(
                    topic: "files", name: "card file", status: .problem,
                    detail: "\(path) is mode \(file.octalMode); others can read it",
                    advice: "chmod 600 \(path)"))
        }
        switch store.protection() {
        case .passphrase:
            checks.append(
                Check(
                    topic: "files", name: "card", status: .ok,
                    detail: "\(store.encryptedPath), behind a passphrase"))
        case .unencrypted:
            checks.append(
                Check(
                    topic: "files", name: "card", status: .note,
                    detail: "\(store.plainPath), stored without a passphrase",
                    advice: "`gymcard passphrase set` encrypts it"))
        case nil:
            checks.append(
                Check(
                    topic: "files", name: "card", status: .note, detail: "no card stored",
                    advice: "`gymcard scan --save <photo>` or `gymcard set` stores one"))
        }
        return checks
    }

    // MARK: Libraries

    static func library(_ library: Library) -> Check {
        if library.loads() {
            return Check(
                topic: "libraries", name: library.name, status: .ok, detail: "loads (\(library.purpose))")
        }
        return Check(
            topic: "libraries", name: library.name, status: library.essential ? .problem : .note,
            detail: "does not load: without it, no \(library.purpose)",
            advice: "apt install \(library.package)")
    }

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
            checks.append(
                Check(topic: "config", name: "config file", status: .ok, detail: "\(path) is valid"))
        } catch {
            checks.append(
                Check(
                    topic: "config", name: "config file", status: .problem, detail: error.description,
                    advice: "fix it, or move it aside to use the defaults"))
        }
        for unknown in ConfigFile.shape.unknownKeys(in: file) {
            checks.append(
                Check(
                    topic: "config", name: "unknown key", status: .note, detail: "\(path): \(unknown)",
                    advice: "gymcard ignores it; remove or rename it"))
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
                detail: settings.endpoint.absoluteString + origin(settings.endpointOrigin)),
        ]
        if !context.hasZone(settings.timeZone) {
            checks.append(
                Check(
                    topic: "campus", name: "time zone", status: .problem,
                    detail: "\(settings.timeZone) is not in \(context.zoneDirectory)",
                    advice: "apt install tzdata"))
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
        do {
            guard let store = try HistoryStore.openIfPresent(path: path) else {
                return Check(
                    topic: "history", name: "history", status: .note, detail: "none yet (\(path))",
                    advice: timerRuns ? nil : "`gymcard collect --install` starts one")
            }
            last = try store.lastTriedAttempt()
        } catch {
            return Check(
                topic: "history", name: "history", status: .problem, detail: "\(path): \(error)",
                advice: "move it aside; `gymcard collect` starts a new one")
        }
        guard let last else {
            return Check(
                topic: "history", name: "history", status: .note, detail: "\(path) has nothing recorded yet")
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

/// A file's mode, from `stat`, or `nil` when it is not there.
private struct FileStatus {
    var mode: mode_t

    init?(_ path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        mode = status.st_mode & 0o7777
    }

    var octalMode: String { "0" + String(mode, radix: 8) }
}
