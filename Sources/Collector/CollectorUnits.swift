/// The files that make `gymcard collect` run every 5 minutes without a server: a systemd user service
/// and timer, or a crontab line where there is no systemd.
///
/// The timer fires on the clock every 5 minutes with `Persistent=true` (a sample missed while the laptop
/// slept is taken at wake-up) and a randomized delay that is fixed per machine (`FixedRandomDelay`), so
/// that samples stay 5 minutes apart and not every gymcard in a dorm asks at the same second. The
/// service runs the installed binary by its absolute path, with the XDG directories in force when it was
/// installed, so the timer writes the history the person reads.
public struct CollectorUnits: Sendable, Equatable {
    /// The service's file name.
    public static let serviceName = "gymcard-collect.service"
    /// The timer's file name.
    public static let timerName = "gymcard-collect.timer"

    /// The absolute path of the `gymcard` binary to run.
    public var executable: String
    /// Environment variables to pass on (the XDG directories), in order.
    public var environment: [(name: String, value: String)]
    /// The campus to collect (`--campus`); `nil` follows the campus in use at each run.
    public var campus: String?

    /// Creates the units for an executable and environment.
    public init(executable: String, environment: [(name: String, value: String)], campus: String? = nil) {
        self.executable = executable
        self.environment = environment
        self.campus = campus
    }

    /// Equal executables and environments.
    public static func == (left: CollectorUnits, right: CollectorUnits) -> Bool {
        left.executable == right.executable && left.environment.map(\.name) == right.environment.map(\.name)
            && left.environment.map(\.value) == right.environment.map(\.value) && left.campus == right.campus
    }

    /// `gymcard-collect.service`.
    public var service: String {
        var lines = [
            "[Unit]",
            "Description=gymcard: record how full the gyms are, for trends and the best time to go",
            "Documentation=man:gymcard(1)",
            "",
            "[Service]",
            "Type=oneshot",
        ]
        for (name, value) in environment { lines.append("Environment=" + Self.quoted("\(name)=\(value)")) }
        lines.append(
            "ExecStart=" + Self.quoted(executable) + " collect"
                + (campus.map { " --campus " + Self.quoted($0) } ?? ""))
        return lines.joined(separator: "\n") + "\n"
    }

    /// `gymcard-collect.timer`.
    public var timer: String {
        """
        [Unit]
        Description=gymcard: sample gym occupancy every 5 minutes
        Documentation=man:gymcard(1)

        [Timer]
        OnCalendar=*:0/5
        Persistent=true
        RandomizedDelaySec=60
        FixedRandomDelay=true

        [Install]
        WantedBy=timers.target

        """
    }

    /// The crontab line that does the same where there is no systemd.
    public var crontabLine: String {
        let assignments = environment.map { "\($0.name)=" + Self.shellQuoted($0.value) }
        let campusArguments = campus.map { ["--campus", Self.shellQuoted($0)] } ?? []
        let command = (assignments + [Self.shellQuoted(executable), "collect"] + campusArguments).joined(
            separator: " ")
        // cron turns an unescaped % into a newline.
        return "*/5 * * * * " + command.replacing("%", with: "\\%")
    }

    /// A systemd word: double-quoted with `\` and `"` escaped, and `%` doubled (systemd's specifiers).
    static func quoted(_ text: String) -> String {
        let escaped = text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
            .replacing("%", with: "%%")
        return "\"" + escaped + "\""
    }

    /// A POSIX shell word in single quotes.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
