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

/// `doctor`'s checks: where gymcard keeps its files, which optional libraries load, whether the config
/// file is valid, which campus and addresses are in use, whether the collection timer runs and when the
/// history last recorded. Each check says what it found and, when something is off, what to do.
///
/// Nothing here touches the network, and nothing decrypts or shows the stored card: its files are looked
/// at (they exist, their modes, their structure as far as it can be checked without the passphrase), so
/// no check can show the card's ID.
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
        /// The library, as the registry (ARCHITECTURE §17) names it: its name, purpose and package.
        public var library: SystemLibrary
        /// Whether gymcard without it cannot do its part at all (a problem) rather than do less (a note).
        public var essential: Bool
        /// Loads it (the product's own `dlopen` loader) and says why that failed, or `nil`.
        public var failure: @Sendable () -> LoadingError?

        /// A library of the registry, with why it does not load.
        public init(
            _ library: SystemLibrary, essential: Bool = false,
            failure: @escaping @Sendable () -> LoadingError?
        ) {
            self.library = library
            self.essential = essential
            self.failure = failure
        }

        /// A library of the registry, with whether it loads.
        public init(_ library: SystemLibrary, essential: Bool = false, loads: @escaping @Sendable () -> Bool)
        {
            self.init(library, essential: essential) { loads() ? nil : .notLoaded(library, reason: "") }
        }

        /// Its name, as the checks show it.
        public var name: String { library.name }

        /// The libraries gymcard loads on first use, each through the loader the command uses. libqrencode
        /// is linked (every `--qr` needs it), so it is not among them.
        public static let product: [Library] = [
            Library(.zbar, essential: true, failure: { ZBarReader.loadingError }),
            Library(.libcrypto, essential: true, failure: { AgeFile.cryptoLoadingError }),
            Library(.zxing, loads: { ZXingReader.isAvailable }),
            Library(.dmtx, failure: { DataMatrixReader.loadingError }),
            Library(.heif, failure: { HEIFCodec.loadingError }),
            Library(.webp, failure: { WebPCodec.loadingError }),
            Library(.tiff, failure: { TIFFCodec.loadingError }),
            Library(.zint, failure: { ModuleMatrix.zintLoadingError }),
            Library(.zip, failure: { CatimaZip.loadingError }),
            Library(.sqlite, essential: true, failure: { HistoryStore.libraryLoadingError }),
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
}
