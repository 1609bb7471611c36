// swift-tools-version:6.1
import PackageDescription

/// Every target: Swift 6 language mode plus the two upcoming features the style guide requires.
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

/// The image code (decoding, the scanner's cascade, the tests' photo generator) built optimized even in
/// a debug build when `GYMCARD_OPTIMIZE_IMAGES=1` is in the environment of `swift build` (scripts/test
/// sets it): the scanner's tests and the end-to-end scans run several times faster, with the same
/// results (the cascade is bounded by work, not time). A package that depends on gymcard never sets it,
/// so it gets no unsafe flag.
let imageSettings: [SwiftSetting] =
    strictSettings
    + (Context.environment["GYMCARD_OPTIMIZE_IMAGES"] == "1"
        ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : [])

let package = Package(
    name: "gymcard",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "gymcard", targets: ["gymcard"]),
        .library(name: "Codabar", targets: ["Codabar"]),
        .library(name: "Symbols", targets: ["Symbols"]),
        .library(name: "Scanner", targets: ["Scanner"]),
        .library(name: "Catima", targets: ["Catima"]),
        // zxing-cpp's helper process, which Scanner starts when a photo needs it (see gymcard-zxing below).
        .executable(name: "gymcard-zxing", targets: ["gymcard-zxing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // Test-only: starting processes in tests (Foundation's Process needs a thread blocked per wait and
        // per pipe; swift-subprocess waits and reads without blocking the concurrency pool), and the
        // FilePath its API takes.
        .package(url: "https://github.com/swiftlang/swift-subprocess", exact: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system", exact: "1.8.1"),
    ],
    targets: [
        // C libraries, each seen by exactly one Swift module.
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng16", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        // libzbar is loaded on first use with dlopen (Sources/Scanner/ZBarLibrary.swift): linked, its
        // dependency tree (X11, D-Bus, systemd, libgcrypt) costs every gymcard process 1.2 ms. So no
        // pkgConfig here: `pkg-config --libs zbar` is only -lzbar, and zbar.h is in /usr/include.
        .systemLibrary(name: "CZBar", providers: [.apt(["libzbar-dev"])]),
        // libheif (iPhone HEIC and AVIF photos) is loaded the same way, on the first HEIF photo: it brings
        // HEVC and AV1 codecs (libde265, x265, aom, dav1d) that no other command needs. heif.h is in
        // Debian's multiarch include directory, which the compiler searches.
        .systemLibrary(name: "CHeif", providers: [.apt(["libheif-dev"])]),
        // libtiff (scanners' TIFFs) and libwebp (browsers' WebPs) are loaded the same way, each on the first
        // file of its format; their headers only are used at build time.
        .systemLibrary(name: "CTIFF", providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(name: "CWebP", providers: [.apt(["libwebp-dev"])]),
        // zxing-cpp 1.4.0 (Debian's libzxing-dev), the second decoding engine, has only a C++ API: the C++
        // program gymcard-zxing calls it, in a process of its own that Scanner starts with posix_spawn when
        // libzbar has read nothing (Sources/Scanner/ZXingHelper.swift; ARCHITECTURE §14). Linked, libZXing
        // and the C++ runtime would be loaded by every gymcard process, and an assertion of Debian's build
        // would take gymcard down. CZXing holds only the helper's protocol, so Scanner links nothing from it.
        .executableTarget(
            name: "gymcard-zxing", linkerSettings: [.linkedLibrary("ZXing")]),
        .systemLibrary(name: "CZXing"),
        // libdmtx 0.7 (Debian's libdmtx-dev), the Data Matrix decoder after zxing-cpp, loaded on first use
        // through DynamicLoading (Sources/Scanner/DataMatrixReader.swift); only dmtx.h is used at build time.
        .systemLibrary(name: "CDmtx", providers: [.apt(["libdmtx-dev"])]),
        // libzint 2.11 (Debian's libzint-dev), the encoder of every symbology but Codabar, is loaded on first
        // use with dlopen like libzbar (Sources/Symbols/ZintLibrary.swift): `show` of a Codabar card never
        // maps it. Only zint.h is used at build time.
        .systemLibrary(name: "CZint", providers: [.apt(["libzint-dev"])]),
        // libzip (Debian's libzip-dev), for Catima's export zip (AES-encrypted entries included), is loaded on
        // first use with dlopen (Sources/Catima/LibZip.swift): linked, it and libcrypto would load in every
        // gymcard process. Only zip.h is used at build time.
        .systemLibrary(name: "CZip", providers: [.apt(["libzip-dev"])]),
        // libcrypto (OpenSSL 3) for the card's age file (scrypt, HMAC-SHA-256,
        // ChaCha20-Poly1305) is loaded on first use with dlopen (Sources/CardVault/LibCrypto.swift): only a
        // passphrase needs it. Only the OpenSSL headers are used at build time.
        .systemLibrary(name: "CLibCrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(
            name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // SQLite for the occupancy history: the system's libsqlite3, seen by History alone, which opens it
        // with dlopen on the first history file (Sources/History/SQLiteLibrary.swift): linked, it cost every
        // gymcard process 1.2 M instructions at start-up. Only sqlite3.h is used at build time. GRDB was
        // measured and not taken: it links all of Foundation (see History's docs).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // libsystemd's D-Bus client, for logind's SetBrightness: the backlight guardian alone opens it with
        // dlopen (Sources/Backlight/SystemBusLibrary.swift); sd-bus.h gives the table's types.
        .systemLibrary(name: "CSystemdBus", providers: [.apt(["libsystemd-dev"])]),
        // Libraries along the boundaries in ARCHITECTURE §3.
        .target(name: "Codabar", swiftSettings: strictSettings),
        // The symbologies a card can carry, their names, and what text each accepts: pure Swift, so the
        // card vault and the command line can validate an ID without loading any drawing library.
        .target(name: "Symbologies", dependencies: ["Codabar"], swiftSettings: strictSettings),
        .target(name: "Storage", swiftSettings: strictSettings),
        // Catima (the Android card keeper): its CSV export, its zip (through libzip) and its share links.
        .target(
            name: "Catima", dependencies: ["Codabar", "Symbologies", "Storage", "CZip", "DynamicLoading"],
            swiftSettings: strictSettings),
        .target(
            name: "CardVault",
            dependencies: ["Codabar", "Symbologies", "Storage", "CLibCrypto", "DynamicLoading"],
            swiftSettings: strictSettings),
        .target(
            name: "Imaging",
            dependencies: ["CPNG", "CTurboJPEG", "CHeif", "CTIFF", "CWebP", "DynamicLoading"],
            swiftSettings: imageSettings),
        .target(
            name: "Symbols",
            dependencies: ["Codabar", "Symbologies", "Imaging", "CQREncode", "CZint", "DynamicLoading"],
            swiftSettings: strictSettings),
        // Terminal image protocols (kitty, sixel, iTerm2, tmux pass-through) and the probe that asks a
        // terminal which it speaks.
        .target(name: "TerminalGraphics", dependencies: ["Imaging"], swiftSettings: strictSettings),
        // The full-screen card at the turnstile: the largest drawing that fits, pixel exact, with its text.
        .target(
            name: "Turnstile",
            dependencies: ["Codabar", "Imaging", "Storage", "Symbols", "TerminalGraphics", "TerminalText"],
            swiftSettings: strictSettings),
        .target(
            name: "Scanner",
            dependencies: [
                "Codabar", "Symbologies", "Imaging", "CZBar", "CZXing", "CDmtx", "DynamicLoading", "Spawning",
            ],
            swiftSettings: imageSettings),
        // The laptop's backlight at full while the card fills the screen, put back by a guardian process.
        .target(
            name: "Backlight", dependencies: ["CSystemdBus", "Storage", "Spawning", "DynamicLoading"],
            swiftSettings: strictSettings),
        // A C library opened on first use, its function table declared in C from its own header, and the
        // registry of those libraries (ARCHITECTURE §17); include/FunctionTable.h, its C half, is included by
        // each shim.h by a relative path.
        .target(name: "DynamicLoading", exclude: ["include"], swiftSettings: strictSettings),
        // Starting a program the way gymcard does: no signal blocked, every one at its default.
        .target(name: "Spawning", swiftSettings: strictSettings),
        // Case-insensitive search and trimming without Foundation, for everything that reads text.
        .target(name: "TextSearch", swiftSettings: strictSettings),
        // Text gymcard did not write (labels, names from pages, feed titles, file names) made safe to print
        // on a terminal: its own module without dependencies, so that every module that prints can use it.
        .target(name: "TerminalText", swiftSettings: strictSettings),
        // The process's terminal: its standard streams, size and colour, and Ctrl-C, SIGTERM and SIGHUP.
        .target(name: "Console", dependencies: ["Storage", "TerminalText"], swiftSettings: strictSettings),
        // Reading web pages: start tags with their attributes, and readable text out of HTML.
        .target(name: "Markup", dependencies: ["TextSearch"], swiftSettings: strictSettings),
        // The config file: its problems worded for a person (the key, the line and column, the closest
        // known key); each module's settings read their own section with it.
        .target(name: "Configuration", dependencies: ["JSONOutput"], swiftSettings: strictSettings),
        // HTTP: requests, the client protocol, validation, bounded retry, and why a fetch failed.
        .target(name: "Fetching", dependencies: ["TextSearch"], swiftSettings: strictSettings),
        // libcurl, for the HTTP client; seen by FetchingCurl alone.
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The HTTP client lives apart so that only gymcard-network links it and Foundation (see
        // Sources/gymcard/main.swift).
        .target(
            name: "FetchingCurl", dependencies: ["Fetching", "TextSearch", "CCurl"],
            swiftSettings: strictSettings),
        // Opening hours: the RecSports hours service, weekly hours from the config file, a per-day cache.
        .target(
            name: "OpeningHours",
            dependencies: [
                "CivilTime", "Configuration", "Fetching", "Storage", "JSONOutput", "TextSearch",
                "TerminalText",
            ],
            swiftSettings: strictSettings),
        // Campuses and facilities, the vendors' answers read into zones, the last known state, `wait`'s
        // condition: values only (its views are OccupancyViews').
        .target(
            name: "Occupancy",
            dependencies: [
                "CivilTime", "Configuration", "Fetching", "Markup", "Storage", "OpeningHours", "TextSearch",
            ],
            swiftSettings: strictSettings),
        // How an occupancy report reads: the text table, the status bars' lines (waybar, tmux), `--json`.
        .target(
            name: "OccupancyViews",
            dependencies: ["Occupancy", "CivilTime", "OpeningHours", "JSONOutput", "TerminalText"],
            swiftSettings: strictSettings),
        // The occupancy history in SQLite: the only module that sees SQLite.
        .target(
            name: "History", dependencies: ["CSQLite", "Storage", "JSONOutput", "DynamicLoading"],
            swiftSettings: strictSettings
        ),
        // The systemd timer and crontab line that run `gymcard collect` every 5 minutes.
        .target(name: "Collector", swiftSettings: strictSettings),
        // When to go: the weekly heatmap, the quietest windows and collection status, from the history.
        .target(
            name: "Trends",
            dependencies: ["History", "CivilTime", "Imaging", "JSONOutput", "Storage", "TerminalText"],
            swiftSettings: strictSettings),
        // JSON output conventions shared by every --json: explicit nulls.
        .target(name: "JSONOutput", swiftSettings: strictSettings),
        // Local days and clock times from libc (FoundationEssentials has no named time zones), and ages in
        // words ("7 min ago").
        .target(name: "CivilTime", swiftSettings: strictSettings),
        .target(
            name: "Events",
            dependencies: [
                "CivilTime", "Configuration", "Fetching", "Storage", "JSONOutput", "TerminalText",
            ],
            swiftSettings: strictSettings),
        // The RSS parser needs FoundationXML (all of Foundation): only gymcard-network links it.
        .target(
            name: "EventsFeed",
            dependencies: ["Events", "Fetching", "FetchingCurl", "Markup", "TextSearch"],
            swiftSettings: strictSettings),

        // The process's plumbing (ARCHITECTURE §3): the one context per process (environment, folders,
        // clock, config file, time zones), the hand-off to gymcard-network, child processes. No use case here.
        .target(
            name: "GymcardCore",
            dependencies: ["CivilTime", "Configuration", "Events", "Fetching", "Spawning", "Storage"],
            swiftSettings: strictSettings),

        // The card's use cases: scan a photo, keep the card in the vault, draw it, move it to and from Catima
        // (ARCHITECTURE §3). No argument parsing and no printing; tests call them in-process.
        .target(
            name: "CardFeature",
            dependencies: [
                "GymcardCore", "CardVault", "Catima", "Codabar", "Imaging", "Scanner", "Symbologies",
                "Symbols",
            ],
            swiftSettings: strictSettings),

        // The campus's use cases: campuses and facilities, occupancy polls, opening hours, history,
        // collecting, trends, wait, events (ARCHITECTURE §3).
        .target(
            name: "CampusFeature",
            dependencies: [
                "GymcardCore", "Occupancy", "OccupancyViews", "OpeningHours", "History", "Trends",
                "Collector",
                "Imaging",
            ],
            swiftSettings: strictSettings),

        // doctor: what is installed, configured and stored, over both features and the library registry.
        .target(
            name: "Diagnosis",
            dependencies: ["CardFeature", "CampusFeature", "DynamicLoading"],
            swiftSettings: strictSettings),

        // The doorway: argument parsing, terminal output, exit codes. Two binaries share it: `gymcard`
        // (everything that needs no network, fast to start) and `gymcard-network` (the same commands with
        // the HTTP client), which gymcard hands network commands to.
        .target(
            name: "GymcardCLI",
            dependencies: [
                "GymcardCore", "CardFeature", "CampusFeature", "Diagnosis", "Console", "Turnstile",
                "Backlight",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings),
        .executableTarget(name: "gymcard", dependencies: ["GymcardCLI"], swiftSettings: strictSettings),
        .executableTarget(
            name: "gymcard-network",
            dependencies: [
                "GymcardCLI", "GymcardCore", "FetchingCurl", "Events", "EventsFeed",
            ],
            swiftSettings: strictSettings),

        // zlib, for the tests only: some of the age project's test vectors are stored compressed.
        .systemLibrary(
            name: "CZlib", path: "Tests/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Helpers shared by the test targets: a seeded generator, temporary directories, a process runner.
        .target(
            name: "TestSupport",
            dependencies: [
                "Codabar", "Symbologies", "Imaging", "Symbols", "CZlib", "TestServer",
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Tests/TestSupport", swiftSettings: imageSettings),
        // Tests' time: US Eastern computed without tzdata, and a seeded occupancy history over weeks.
        .target(
            name: "TestTime", dependencies: ["CivilTime", "History", "TestSupport"], path: "Tests/TestTime",
            swiftSettings: strictSettings),
        // Writes the seeded photo corpus to a directory, for Benchmarks/scan.sh.
        .executableTarget(
            name: "generate-corpus", dependencies: ["TestSupport", "Imaging", "Symbologies", "Symbols"],
            path: "Benchmarks/GenerateCorpus",
            swiftSettings: strictSettings),
        // Writes a seeded year of history and times one recording, for Benchmarks/history.sh.
        .executableTarget(
            name: "generate-history", dependencies: ["TestSupport", "TestTime", "History"],
            path: "Benchmarks/GenerateHistory",
            swiftSettings: strictSettings),
        // A real HTTP server on 127.0.0.1 (an ephemeral port) for the fetcher, occupancy and events tests.
        .target(
            name: "TestServer",
            path: "Tests/TestServer", swiftSettings: strictSettings),
        // The helpers in TestSupport that run processes, under the load a full test run puts on them.
        .testTarget(
            name: "TestSupportTests", dependencies: ["gymcard", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(name: "CodabarTests", dependencies: ["Codabar"], swiftSettings: strictSettings),
        .testTarget(
            name: "SymbologiesTests", dependencies: ["Symbologies", "Codabar"], swiftSettings: strictSettings),
        .testTarget(
            name: "CatimaTests",
            dependencies: [
                "Catima", "Symbologies", "Symbols", "Scanner", "Imaging", "Storage", "TestSupport",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "CardVaultTests",
            dependencies: ["CardVault", "Codabar", "Symbologies", "Storage", "TestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ImagingTests", dependencies: ["Imaging", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "SymbolsTests",
            dependencies: [
                "Symbols", "Symbologies", "Scanner", "Imaging", "Codabar", "TestSupport",
                // The helper's format bits, to ask zxing-cpp for one symbology through Scanner's reader.
                "CZXing",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "TerminalGraphicsTests",
            dependencies: [
                "TerminalGraphics", "Turnstile", "Symbols", "Symbologies", "Scanner", "Imaging", "Codabar",
                "TerminalText", "TestSupport",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ScannerTests",
            dependencies: [
                "Scanner", "Symbologies", "Imaging", "Symbols", "Codabar", "TestSupport", "CZXing",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "DynamicLoadingTests",
            dependencies: [
                "DynamicLoading", "CDmtx", "CHeif", "CLibCrypto", "CSQLite", "CSystemdBus", "CTIFF", "CWebP",
                "CZBar", "CZint", "CZip", "TestSupport", "gymcard",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "StorageTests", dependencies: ["Storage", "TestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "FetchingTests", dependencies: ["Fetching", "FetchingCurl", "TestServer"],
            swiftSettings: strictSettings),
        .testTarget(name: "MarkupTests", dependencies: ["Markup"], swiftSettings: strictSettings),
        .testTarget(name: "TextSearchTests", dependencies: ["TextSearch"], swiftSettings: strictSettings),
        .testTarget(name: "TerminalTextTests", dependencies: ["TerminalText"], swiftSettings: strictSettings),
        .testTarget(
            name: "ConsoleTests", dependencies: ["Console", "TerminalText"], swiftSettings: strictSettings),
        // The guardian's tests start the built gymcard.
        .testTarget(
            name: "BacklightTests", dependencies: ["Backlight", "TestSupport", "gymcard"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "GymcardCLITests",
            dependencies: [
                "GymcardCLI", "Console", "Configuration",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "GymcardCoreTests",
            dependencies: [
                "GymcardCore", "CardFeature", "CampusFeature", "Diagnosis", "Console", "CardVault",
                "CivilTime",
                "Codabar",
                "Fetching", "FetchingCurl", "History",
                "Imaging", "Occupancy", "OpeningHours", "Scanner", "Storage", "Symbologies", "Symbols",
                "Trends",
                "TestSupport", "TestServer", "Catima", "Configuration", "Events", "EventsFeed",
                "DynamicLoading",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ConfigurationTests", dependencies: ["Configuration"], swiftSettings: strictSettings),
        .testTarget(
            name: "OccupancyTests",
            dependencies: [
                "TestTime",
                "Occupancy", "OccupancyViews", "Configuration", "Fetching", "FetchingCurl", "Storage",
                "TestServer", "TestSupport",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "EventsTests",
            dependencies: [
                "CivilTime", "Events", "EventsFeed", "Fetching", "FetchingCurl", "Storage", "TestServer",
                "TestSupport", "TestTime",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "OpeningHoursTests",
            dependencies: [
                "TestTime",
                "OpeningHours", "CivilTime", "Configuration", "Fetching", "FetchingCurl", "Storage",
                "TestServer",
                "TestSupport",
            ],
            swiftSettings: strictSettings),
        .testTarget(name: "CollectorTests", dependencies: ["Collector"], swiftSettings: strictSettings),
        .testTarget(
            name: "TrendsTests",
            dependencies: [
                "TestTime", "Trends", "History", "CivilTime", "Imaging", "TestSupport",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "HistoryTests", dependencies: ["History", "Trends", "CivilTime", "Storage", "TestSupport"],
            swiftSettings: strictSettings),
        // The card you draw is the card every reader reads: the generated space of cards, each output.
        .testTarget(
            name: "CardRoundTripTests",
            dependencies: [
                "CardFeature", "Symbols", "Symbologies", "Scanner", "Imaging", "Codabar", "TestSupport",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "gymcard", "gymcard-network", "Codabar", "CardVault", "Storage", "Scanner", "Symbologies",
                "Imaging", "Symbols", "TerminalText", "DynamicLoading", "TestSupport", "TestServer",
                "TestTime",
            ],
            swiftSettings: strictSettings),
    ],
    cxxLanguageStandard: .cxx17
)
