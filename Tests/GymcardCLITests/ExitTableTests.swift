import CampusFeature
import CardFeature
import Testing
import Turnstile

@testable import GymcardCLI

/// The one table that words what went wrong: the features' problems are neutral (no option or command
/// names), and the table adds what to do, with the exit status.
@Suite("The exit table adds the advice")
struct ExitTableTests {
    @Test("each remedy of a Catima problem is said with its option", arguments: CatimaProblem.Remedy.allCases)
    func catimaRemedy(remedy: CatimaProblem.Remedy) throws {
        let option =
            switch remedy {
            case .passwordFile: "--password-file <file>"
            case .chooseStore: "--store <name>"
            case .nameFormat: "--format zip|csv"
            case .matchFormat: "--format"
            case .replace: "--force"
            case .chooseOnTerminal: "terminal"
            }
        let problem = CatimaProblem("what happened", kind: .usage, remedy: remedy)
        let failure = try #require(ExitTable.failure(for: problem))
        #expect(failure.message.hasPrefix("what happened"))
        #expect(failure.message.contains(option), "\(failure.message)")
        #expect(failure.status == .usage)
        let plain = try #require(ExitTable.failure(for: CatimaProblem("what happened", kind: .badData)))
        #expect(plain.message == "what happened" && plain.status == .dataError)
    }

    @Test("--cached with nothing stored says to run occupancy first; a failed fetch does not")
    func nothingStored() throws {
        let cached = try #require(ExitTable.failure(for: OccupancyShortfall.nothingAvailable(cached: true)))
        #expect(
            cached.message == "no occupancy data stored yet; run `gymcard occupancy` (without --cached) first"
        )
        #expect(cached.status == .unavailable)
        let fetched = try #require(ExitTable.failure(for: OccupancyShortfall.nothingAvailable(cached: false)))
        #expect(!fetched.message.contains("--cached") && fetched.status == .unavailable)
    }

    @Test("bars too thin name --scale and --ratio; other ranges say only the range")
    func barsTooThin() throws {
        let thin = try #require(ExitTable.failure(for: SymbolSettingsProblem.barsTooThin("bars too thin")))
        #expect(thin.message == "bars too thin; use --scale 2 or more, or a --ratio of 2.5 or more")
        let range = try #require(ExitTable.failure(for: SymbolSettingsProblem.outOfRange("use 1 to 20")))
        #expect(range.message == "use 1 to 20")
        #expect(thin.status == .usage && range.status == .usage)
    }

    @Test("a screen too small for the card says to enlarge it or write an image; a failed encoding does not")
    func screenTooSmall() throws {
        let small = TurnstileProblem.cannotDraw(.terminalTooNarrow(requiredColumns: 78, availableColumns: 7))
        let failure = try #require(ExitTable.failure(for: small))
        #expect(failure.message.hasSuffix("; enlarge the window, or write an image with --png"))
        #expect(!"\(small)".contains("window"), "the problem itself is neutral: \(small)")
        let encoding = try #require(
            ExitTable.failure(for: TurnstileProblem.cannotDraw(.imageEncoding("no memory"))))
        #expect(!encoding.message.contains("--png"))
        #expect(failure.status == .ioError && encoding.status == .ioError)
    }
}
