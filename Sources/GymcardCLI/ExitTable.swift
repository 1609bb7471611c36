import CampusFeature
import CardFeature
import Console
import Diagnosis
import GymcardCore
import Turnstile

/// The one place that turns what went wrong into the line a person reads and the exit status (ExitStatus,
/// sysexits(3)). The libraries' errors are neutral; the advice ("install tzdata") is added here.
enum ExitTable {
    /// The failure for `error`, or `nil` when unknown here (then argument-parser's, else an internal error, 70).
    static func failure(for error: any Error) -> Failure? {
        switch error {
        case let failure as Failure:
            return failure
        case let convertible as any ConvertibleToFailure:
            return convertible.failure
        case let problem as ContextProblem:
            return failure(problem)
        case let problem as ConfigFileProblem:
            return Failure(
                "\(problem); " + (problem.path == nil ? "fix or unset it" : "fix or remove it"),
                status: .configError)
        case let error as HistoryError:
            return historyFailure(error)
        case let shortfall as OccupancyShortfall:
            return occupancyFailure(shortfall)
        case let shortfall as Collecting.Shortfall:
            return collectFailure(shortfall)
        case let problem as Collecting.TimerNotWritten:
            return Failure("\(problem)", status: .ioError)
        case let problem as HistoryFiles.NotAMoment:
            return Failure("--since \(problem)", status: .usage)
        case let problem as HistoryImport.Problem:
            guard case .malformed = problem else { return Failure("\(problem)", status: .noInput) }
            return Failure("\(problem)", status: .dataError)
        case let shortfall as HoursShortfall:
            switch shortfall {
            case .notCached: return Failure("\(shortfall)", status: .ioError)
            case .partlyUnknown: return .silent(.staleData)
            case .nothingKnown: return .silent(.unavailable)
            }
        case FetchError.cancelled:
            // Ctrl-C while fetching: the signal handler's status, nothing said.
            return .silent(.interrupted)
        case let problem as EventsQueryProblem:
            switch problem.reason {
            case .fetch(.cancelled): return .silent(.interrupted)
            case .fetch(.clientError):
                // A 404 or 410 means the address is wrong: say where it came from.
                let advice = problem.origin.advice(key: "events.url", configPath: problem.configPath)
                return Failure("\(problem); \(advice)", status: .unavailable)
            default:
                return Failure("\(problem)", status: problem.reason.isUnavailable ? .unavailable : .dataError)
            }
        case let problem as WaitProblem:
            return Failure("\(problem); give --below as a percentage, such as 30%", status: .usage)
        case let ended as PromptEnded:
            return Failure("\(ended)", status: .usage)
        case let problem as FacilityLookupProblem:
            return Failure("\(problem); give one of \(problem.known.joined(separator: ", "))", status: .usage)
        // The card side: the vault, passphrases, storing.
        case let vault as VaultError:
            return failure(vault)
        case let problem as PassphraseProblem:
            return failure(problem)
        case let problem as CardAccessProblem:
            return failure(problem)
        case let problem as TurnstileProblem:
            return failure(problem)
        case let problem as PhotoScanProblem:
            switch problem.kind {
            case .nothingFound:
                return Failure(
                    problem.message + (problem.timeRanOut ? " (give more with --budget)" : ""),
                    status: .nothingFound)
            case .unreadable: return Failure(problem.message, status: .noInput)
            case .undecodable, .undecodableText: return Failure(problem.message, status: .dataError)
            case .decoderMissing: return Failure(problem.message, status: .unavailable)
            }
        case let several as SeveralCards:
            return Failure(
                "\(several): run on a terminal to choose, or store one with `gymcard set --symbology <name>` (it "
                    + "reads the ID from standard input)", status: .usage)
        case let problem as BatchProblem:
            return failure(problem)
        case let problem as CatimaProblem:
            let remedy =
                switch problem.remedy {
                case .passwordFile: "; give its password with --password-file <file>, or run on a terminal"
                case .chooseStore: "; choose one with --store <name>"
                case .nameFormat: ", or give --format zip|csv"
                case .matchFormat: "; name it to match --format, or leave --format out"
                case .replace: "; give another name, or --force to replace it"
                case .chooseOnTerminal: "; run on a terminal to choose one (they share the store's name)"
                case nil: ""
                }
            return Failure(
                problem.message + remedy, status: ExitStatus(rawValue: problem.kind.rawValue) ?? .software)
        case let missing as NoIDGiven:
            return Failure("\(missing)", status: .usage)
        case let invalid as InvalidID:
            return Failure("\(invalid)", status: .dataError)
        case let problem as SymbolSettingsProblem:
            return failure(problem)
        case let problem as NamedOutputProblem:
            return Failure("\(problem)", status: .ioError)
        case let problem as SymbolFileProblem:
            if case .drawerMissing = problem { return Failure("\(problem)", status: .unavailable) }
            if case .tooLarge(let width, let height) = problem {
                // Only --scale makes a symbol narrower; the height follows --height too.
                let wide = (width ?? 0) > ImageLimits.maximumSide
                let advice =
                    wide && height <= ImageLimits.maximumSide ? "lower --scale" : "lower --scale or --height"
                return Failure("\(problem); \(advice)", status: .usage)
            }
            guard case .cannotDraw = problem else { return Failure("\(problem)", status: .ioError) }
            return Failure("\(problem)", status: .dataError)
        default:
            return nil
        }
    }

    /// The history: 65 for a file from a newer gymcard, 69 without libsqlite3, 74 otherwise (full, busy, …).
    private static func historyFailure(_ error: HistoryError) -> Failure {
        if case .newerVersion = error { return Failure("\(error)", status: .dataError) }
        if case .libraryMissing = error { return Failure("\(error)", status: .unavailable) }
        return Failure("\(error)", status: .ioError)
    }

    /// What an occupancy poll lacked: 69 nothing to show, 74 not kept, 75 partly stale (said on its lines).
    private static func occupancyFailure(_ shortfall: OccupancyShortfall) -> Failure {
        switch shortfall {
        case .nothingAvailable(cached: true):
            Failure("\(shortfall); run `gymcard occupancy` (without --cached) first", status: .unavailable)
        case .nothingAvailable(cached: false): Failure("\(shortfall)", status: .unavailable)
        case .notKept: Failure("\(shortfall)", status: .ioError)
        case .partlyStale: Failure.silent(.staleData)
        }
    }

    /// A sample: 74 not recorded, 75 partly fetched, 69 nothing fetched.
    private static func collectFailure(_ shortfall: Collecting.Shortfall) -> Failure {
        switch shortfall {
        case .notRecorded: Failure("\(shortfall)", status: .ioError)
        case .partly: Failure("\(shortfall)", status: .staleData)
        case .nothing: Failure("\(shortfall)", status: .unavailable)
        }
    }

    private static func failure(_ problem: ContextProblem) -> Failure {
        switch problem {
        case .invalidTestClock: Failure("\(problem)", status: .usage)
        case .unknownZone:
            Failure(
                "\(problem); install \(SystemData.timeZones.debianPackage) (\(SystemData.timeZones.installCommand)), "
                    + "or set occupancy.timeZone in the config file",
                status: .configError)
        case .unreadableZone:
            Failure("\(problem); reinstall \(SystemData.timeZones.debianPackage)", status: .configError)
        case .networkUnavailable:
            Failure(
                "\(problem); gymcard needs it beside itself for the network: reinstall gymcard",
                status: .unavailable)
        }
    }

    // MARK: The card

    private static func failure(_ error: VaultError) -> Failure {
        switch error {
        case .noCard:
            Failure("\(error); store one with `gymcard set` or `gymcard scan PHOTO --save`", status: .noInput)
        case .wrongPassphrase: Failure("\(error)", status: .wrongPassphrase)
        case .damaged:
            Failure(
                "\(error); `gymcard card --restore` brings back the previous card; `gymcard forget` removes it",
                status: .dataError)
        case .onlyPrevious: Failure("\(error); `gymcard card --restore` brings it back", status: .noInput)
        case .unsupported, .workFactorTooHigh: Failure("\(error)", status: .dataError)
        case .emptyPassphrase: Failure("\(error)", status: .usage)
        case .notEncrypted: Failure("\(error); add one with `gymcard passphrase set`", status: .usage)
        case .alreadyEncrypted: Failure("\(error); use `gymcard passphrase change`", status: .usage)
        case .storage: Failure("\(error)", status: .ioError)
        case .damagedPrevious:
            Failure("\(error); nothing was swapped, the stored card is as it was", status: .dataError)
        case .libcryptoMissing(let loading):
            Failure(
                "\(error); \(loading.library.installAdvice)",
                status: .unavailable)
        }
    }

    private static func failure(_ problem: PassphraseProblem) -> Failure {
        switch problem {
        case .cannotReadFile: Failure("\(problem)", status: .noInput)
        case .noTerminal:
            Failure("\(problem); give --passphrase-file <file> or --passphrase-fd <n>", status: .usage)
        case .noTerminalToChoose:
            Failure(
                "choose a passphrase for the card: run on a terminal, give --passphrase-file <file> "
                    + "or --passphrase-fd <n>, or store it unencrypted with --no-passphrase",
                status: .usage)
        case .empty(_, let noneOffered):
            Failure("\(problem)" + (noneOffered ? "; give one, or use --no-passphrase" : ""), status: .usage)
        case .descriptorNotOpen, .differ, .cancelled: Failure("\(problem)", status: .usage)
        }
    }

    private static func failure(_ problem: CardAccessProblem) -> Failure {
        switch problem {
        case .cardHasPassphrase:
            Failure("\(problem); remove it first with `gymcard passphrase remove`", status: .usage)
        case .keptChanging: Failure("\(problem): run the command again when they are done", status: .ioError)
        case .noPreviousCard: Failure("\(problem)", status: .noInput)
        }
    }

    private static func failure(_ problem: TurnstileProblem) -> Failure {
        switch problem {
        case .tmuxBlocksImages:
            Failure(
                "\(problem): run `tmux set -g allow-passthrough on`, or use --renderer blocks", status: .usage
            )
        case .cellSizeUnknown: Failure("\(problem); use --renderer blocks", status: .usage)
        case .cannotDraw(let error):
            Failure(
                "\(problem)" + (error.isTerminalTooSmall ? "; \(tooSmallAdvice("an image", "--png"))" : ""),
                status: .ioError)
        }
    }

    /// What to do when no drawing fits the terminal: `option` writes `what` as an image instead.
    static func tooSmallAdvice(_ what: String, _ option: String) -> String {
        "enlarge the window, or write \(what) with \(option)"
    }

    /// A drawing setting that does not apply, worded with the option that gave it.
    private static func failure(_ problem: SymbolSettingsProblem) -> Failure {
        switch problem {
        case .outOfRange(let reason): Failure(reason, status: .usage)
        case .barsTooThin(let reason):
            Failure("\(reason); use --scale 2 or more, or a --ratio of 2.5 or more", status: .usage)
        case .notForQR(let setting):
            Failure(
                "\(SymbolOptions.option(setting)) is for the barcode's image (--png, --svg); the QR code has none",
                status: .usage)
        case .onlyCodabar(let setting, let symbology):
            Failure(
                "\(SymbolOptions.option(setting)) is for Codabar, and the ID is drawn as \(symbology.displayName)",
                status: .usage)
        case .onlyLinear(let setting, let symbology):
            Failure(
                "\(SymbolOptions.option(setting)) is for a barcode's bars, and \(symbology.displayName) is a grid "
                    + "of modules; leave it out", status: .usage)
        case .symbologyForStoredCard:
            Failure("--symbology is for --id: \(problem)", status: .usage)
        }
    }

    private static func failure(_ problem: BatchProblem) -> Failure {
        switch problem {
        case .unreadableList: Failure("\(problem)", status: .noInput)
        case .notADirectory: Failure("\(problem); give a directory with --out", status: .ioError)
        case .cannotCreateDirectory, .cannotWrite: Failure("\(problem)", status: .ioError)
        case .interrupted(let signal, _):
            Failure(
                "\(problem)", status: ExitStatus(rawValue: Interrupt.status(after: signal)) ?? .interrupted)
        case .binary, .noIDs, .failedLines: Failure("\(problem)", status: .dataError)
        }
    }
}

// MARK: Campuses

extension CampusSetupProblem: ConvertibleToFailure {
    /// The problem with the advice for the `campus` commands.
    var failure: Failure {
        switch self {
        case .notAWebAddress:
            Failure("\(self); give the campus's site, such as https://campusrec.ucsc.edu", status: .usage)
        case .builtIn: Failure("\(self). Give --name to keep another profile of it", status: .usage)
        case .nameTaken(let name):
            Failure(
                "\(self); give another --name, or remove it first (gymcard campus remove \(name))",
                status: .usage)
        case .unknownZone(_, let directory):
            Failure("\(self); give a name such as America/Los_Angeles (see \(directory))", status: .usage)
        case .fusionOnlyOption:
            Failure("\(self); --read and --display-type are for Innosoft Fusion campuses", status: .usage)
        case .fragmentsNeedDisplayType:
            Failure(
                "--read fragments needs the campus's --display-type (seen: …4490 VT, …4489 Ohio, "
                    + "…4488 McMaster and Waterloo)", status: .usage)
        case .unknownCampus, .removingBuiltIn: Failure("\(self)", status: .usage)
        case .configNotAnObject: Failure("\(self); fix it first", status: .configError)
        case .cannotWrite: Failure("\(self); it is unchanged", status: .ioError)
        }
    }
}

extension CampusPageProblem: ConvertibleToFailure {
    /// Waiting rooms, sign-ins and fetch failures are unavailable (69); a page without cards is bad data.
    var failure: Failure {
        switch self {
        case .cancelled: .silent(.interrupted)
        case .unreadable, .notThePage: Failure("\(self)", status: .unavailable)
        case .noCards, .noZones: Failure("\(self)", status: .dataError)
        }
    }
}

extension CampusSourceProblem: ConvertibleToFailure {
    /// An address that names no campus gymcard reads is a usage error: the person gave it.
    var failure: Failure {
        guard case .vendorMismatch(_, _, let asked) = self else { return Failure("\(self)", status: .usage) }
        return Failure(
            "\(self); leave out --vendor, or give the \(asked.displayName) campus's own address",
            status: .usage)
    }
}
