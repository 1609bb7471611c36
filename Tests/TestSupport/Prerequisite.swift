import Foundation

/// Whether a test that needs a tool, a Python module or a folder of real data runs: where it is present,
/// and always under `CI=true`, where a missing prerequisite must fail the test rather than skip it.
public enum Prerequisite {
    /// Whether the environment says this is the CI run (`.ci/run` sets `CI=true`).
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// For `.enabled(if:)`: `present`, or the CI run, where the test then fails on what is missing.
    public static func runs(_ present: Bool) -> Bool { present || isCI }
}
