/// The XDG base directories gymcard's files live under, from an environment passed in (tests choose it).
///
/// Relative values are ignored, as the XDG Base Directory specification says.
public struct XDGDirectories: Sendable, Equatable {
    /// `$XDG_DATA_HOME` or `~/.local/share`: the stored card.
    public var dataHome: String
    /// `$XDG_CONFIG_HOME` or `~/.config`: configuration.
    public var configHome: String
    /// `$XDG_CACHE_HOME` or `~/.cache`: caches.
    public var cacheHome: String
    /// `$XDG_STATE_HOME` or `~/.local/state`: occupancy state and history.
    public var stateHome: String

    /// Resolves the directories from an environment such as `ProcessInfo.processInfo.environment`.
    public init(environment: [String: String]) {
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/"
        func resolve(_ name: String, _ fallback: String) -> String {
            if let value = environment[name], value.hasPrefix("/") { return value }
            return home == "/" ? "/" + fallback : home + "/" + fallback
        }
        dataHome = resolve("XDG_DATA_HOME", ".local/share")
        configHome = resolve("XDG_CONFIG_HOME", ".config")
        cacheHome = resolve("XDG_CACHE_HOME", ".cache")
        stateHome = resolve("XDG_STATE_HOME", ".local/state")
    }
}
