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

/// `doctor`'s checks of the files and folders gymcard keeps, and of the optional libraries.
extension Doctor {
    // MARK: Files

    static func folders(_ directories: XDGDirectories) -> [Check] {
        [
            ("data", directories.dataHome, "the stored card"),
            ("config", directories.configHome, "config.json and campus profiles"),
            ("state", directories.stateHome, "occupancy readings and history"),
            ("cache", directories.cacheHome, "events, hours and status-bar caches"),
        ].map { name, home, holds in
            let folder = home + "/gymcard"
            if let problem = unusable(folder) {
                return Check(
                    topic: "files", name: name, status: .problem, detail: "\(folder): \(problem)",
                    advice:
                        "gymcard keeps \(holds) there: make it a folder you own, or set another XDG folder")
            }
            return Check(
                topic: "files", name: name, status: .ok,
                detail: folder + " (" + holds + (FileStatus(folder) == nil ? "; not created yet)" : ")"))
        }
    }

    /// Why gymcard cannot keep files in `folder`, or `nil`: it, or the nearest part of its path that
    /// exists, must be a folder this user can write in (a missing folder is made on first use).
    static func unusable(_ folder: String) -> String? {
        var path = folder
        while FileStatus(path) == nil, path.contains("/"), path != "/" {
            path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
            if path.isEmpty { path = "/" }
        }
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let which = path == folder ? "it" : path
        guard status.st_mode & S_IFMT == S_IFDIR else { return "\(which) is a file, not a folder" }
        guard access(path, W_OK | X_OK) == 0 else { return "\(which) cannot be written by this user" }
        return nil
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
        if let problem = store.problemSeenWithoutPassphrase() {
            let restore = "`gymcard card --restore` brings back the previous card"
            checks.append(
                Check(
                    topic: "files", name: "card", status: .problem, detail: "\(problem)",
                    advice: problem == .onlyPrevious ? restore : restore + "; `gymcard forget` removes it"))
            return checks
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
        guard let failure = library.failure() else {
            return Check(
                topic: "libraries", name: library.name, status: .ok,
                detail: "loads (for \(library.library.purpose))")
        }
        // "has no <function>" when it opens but is another version; else it does not load at all.
        let what = failure.isAbsent ? "does not load" : failure.description
        return Check(
            topic: "libraries", name: library.name, status: library.essential ? .problem : .note,
            detail: "\(what); needed for \(library.library.purpose)",
            advice: library.library.installCommand)
    }
}

/// A file's mode, from `stat`, or `nil` when it is not there.
struct FileStatus {
    var mode: mode_t

    init?(_ path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        mode = status.st_mode & 0o7777
    }

    var octalMode: String { "0" + String(mode, radix: 8) }
}
