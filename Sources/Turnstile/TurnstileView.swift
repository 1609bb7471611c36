import Glibc
import Storage
import Symbols
import TerminalGraphics

/// The card on the alternate screen (`gymcard show` on a terminal), as large as fits, until a key or the
/// timeout; then the screen as it was, and nothing of the card in the scrollback.
public struct TurnstileView {
    /// The renderer asked for: one of them, or `nil` for what the terminal says it can draw.
    public typealias Choice = TurnstileRenderer?

    /// What the process's signal handler must know while the view is up (the CLI's interrupt handling).
    public struct SignalHooks {
        /// The terminal's settings to put back on a signal (`nil`: they are back).
        public var terminal: (_ descriptor: Int32, _ settings: termios?) -> Void
        /// What leaves the full screen on a signal (`nil`: the view is closed).
        public var fullScreen: (_ leave: String?) -> Void

        /// Hooks that hand both to the caller.
        public init(
            terminal: @escaping (Int32, termios?) -> Void, fullScreen: @escaping (String?) -> Void
        ) {
            self.terminal = terminal
            self.fullScreen = fullScreen
        }
    }

    let content: TurnstileContent
    let choice: Choice
    /// Seconds until the view closes by itself; 0 waits for a key only.
    let timeoutSeconds: Double
    let colour: Bool
    let environment: [String: String]
    /// Where the notices said once per user are remembered (`$XDG_STATE_HOME/gymcard`).
    let stateDirectory: String
    /// Whether tmux passes images on (`allow-passthrough`), asked only inside tmux.
    let tmuxPassesImages: () -> Bool
    let hooks: SignalHooks

    /// A view of `content`; `choice` `nil` asks the terminal what it can draw.
    public init(
        content: TurnstileContent, choice: Choice, timeoutSeconds: Double, colour: Bool,
        environment: [String: String], stateDirectory: String, tmuxPassesImages: @escaping () -> Bool,
        hooks: SignalHooks
    ) {
        self.content = content
        self.choice = choice
        self.timeoutSeconds = timeoutSeconds
        self.colour = colour
        self.environment = environment
        self.stateDirectory = stateDirectory
        self.tmuxPassesImages = tmuxPassesImages
        self.hooks = hooks
    }

    /// Set by SIGWINCH: the next turn of the loop redraws.
    nonisolated(unsafe) private static var resized: sig_atomic_t = 0

    /// Shows the view; returns the exit status (0 closed by a key or the timeout, 130 by Ctrl-C) and the
    /// notices to say once the screen is back, or `nil` when there is no terminal to take over (the
    /// caller prints inline instead).
    public func run() throws(TurnstileProblem) -> (status: Int32, notices: [String])? {
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var saved = termios()
        guard tcgetattr(descriptor, &saved) == 0 else { return nil }
        var raw = saved
        // Every key is a key: no line editing, no echo, Ctrl-C and Ctrl-Z arrive as bytes.
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        hooks.terminal(descriptor, saved)
        tcsetattr(descriptor, TCSANOW, &raw)
        defer {
            tcsetattr(descriptor, TCSANOW, &saved)
            hooks.terminal(descriptor, nil)
        }

        let insideTmux = !(environment["TMUX"] ?? "").isEmpty
        var notices: [String] = []
        let (renderer, capabilities) = try chooseRenderer(
            descriptor: descriptor, insideTmux: insideTmux, notices: &notices)
        let throughTmux = insideTmux && renderer.drawsPixels

        let leave = TurnstileFrame.leave(renderer: renderer, throughTmux: throughTmux)
        hooks.fullScreen(leave)
        Self.write(TurnstileFrame.enter)
        Self.resized = 0
        signal(SIGWINCH) { _ in TurnstileView.resized = 1 }
        // A parent may have started us with signals blocked (the mask survives exec).
        var resize = sigset_t()
        sigemptyset(&resize)
        sigaddset(&resize, SIGWINCH)
        pthread_sigmask(SIG_UNBLOCK, &resize, nil)
        defer {
            signal(SIGWINCH, SIG_DFL)
            Self.write(leave)
            hooks.fullScreen(nil)
        }
        // Nothing fits at the start: the view ends with what each form needs.
        if let problem = draw(
            renderer: renderer, capabilities: capabilities, descriptor: descriptor, throughTmux: throughTmux)
        {
            throw problem
        }
        // After a resize the view stays: a window made too small says so until it is enlarged again.
        let status = waitForKey(descriptor: descriptor) {
            _ = draw(
                renderer: renderer, capabilities: capabilities, descriptor: descriptor,
                throughTmux: throughTmux)
        }
        return (status, notices)
    }

    /// Writes to standard output now (the frames are large; nothing may wait in a buffer).
    private static func write(_ text: String) {
        fflush(nil)
        try? AtomicFile.writeAll(Array(text.utf8), to: STDOUT_FILENO, path: "standard output")
    }

    /// Draws the card as the screen is now, or (when nothing fits) says so on the screen and returns why.
    private func draw(
        renderer: TurnstileRenderer, capabilities: TerminalCapabilities, descriptor: Int32, throughTmux: Bool
    ) -> TurnstileProblem? {
        let geometry = Self.geometry(descriptor: descriptor, textAreaPixels: capabilities.textAreaPixels)
        do {
            Self.write(
                try TurnstileFrame.render(
                    content, geometry: geometry, renderer: renderer, colour: colour, throughTmux: throughTmux,
                    maximumSize: renderer.imageLimit(capabilities)))
            return nil
        } catch {
            Self.write(
                TurnstileFrame.tooSmall(
                    error, geometry: geometry, renderer: renderer, throughTmux: throughTmux))
            return .cannotDraw(error)
        }
    }

    /// Waits for a key, the timeout or a resize (which calls `redraw`).
    private func waitForKey(descriptor: Int32, redraw: () -> Void) -> Int32 {
        let deadline = timeoutSeconds > 0 ? ContinuousClock.now + .seconds(timeoutSeconds) : nil
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            if Self.resized != 0 {
                Self.resized = 0
                redraw()
            }
            var wait: Int32 = -1
            if let deadline {
                let remaining = deadline - ContinuousClock.now
                guard remaining > .zero else { return 0 }
                wait = TerminalProbe.pollMilliseconds(remaining)
            }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, wait)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            // The terminal went away (hang-up): close as if a key was pressed.
            guard count > 0 else { return 0 }
            let bytes = Array(buffer[..<count])
            // A late answer to the probe is not a key.
            if TerminalProbe.isOnlyAnswers(bytes) { continue }
            return bytes.contains(0x03) ? 130 : 0
        }
    }

    /// The renderer: the one asked for, or what the terminal says it can draw. Inside tmux, images pass
    /// only with `allow-passthrough`; without it, blocks (and a notice, once per user).
    private func chooseRenderer(descriptor: Int32, insideTmux: Bool, notices: inout [String])
        throws(TurnstileProblem) -> (TurnstileRenderer, TerminalCapabilities)
    {
        if choice == .blocks { return (.blocks, TerminalCapabilities()) }
        if insideTmux, !tmuxPassesImages() {
            if choice != nil { throw .tmuxBlocksImages }
            notices.append(
                "the card was drawn in blocks: tmux passes images on only with `set -g allow-passthrough on`")
            if !sayOnce("tmux-passthrough") { notices.removeLast() }
            return (.blocks, TerminalCapabilities())
        }
        let capabilities = TerminalProbe.probe(descriptor: descriptor, throughTmux: insideTmux)
        let geometry = Self.geometry(descriptor: descriptor, textAreaPixels: capabilities.textAreaPixels)
        switch choice {
        case .some(let renderer):
            guard geometry.cellPixels != nil else { throw .cellSizeUnknown }
            return (renderer, capabilities)
        case nil:
            guard geometry.cellPixels != nil else { return (.blocks, capabilities) }
            if capabilities.kittyGraphics { return (.kitty, capabilities) }
            if capabilities.sixel { return (.sixel, capabilities) }
            // iTerm2 (and WezTerm, which also speaks it) has no query of its own: the name is the hint,
            // believed only from a terminal that answered at all.
            let program = environment["TERM_PROGRAM"] ?? ""
            if capabilities.answered, !insideTmux, program == "iTerm.app" || program == "WezTerm" {
                return (.iterm, capabilities)
            }
            return (.blocks, capabilities)
        }
    }

    /// `true` the first time a notice named `name` is said for this user (a marker file in the state folder
    /// remembers it); also `true` when the marker cannot be written.
    private func sayOnce(_ name: String) -> Bool {
        let directory = stateDirectory
        let marker = directory + "/said-" + name
        if access(marker, F_OK) == 0 { return false }
        try? Directory.create(directory, permissions: 0o700)
        let descriptor = open(marker, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
        return true
    }

    /// Columns, rows and the cell size: `TIOCGWINSZ`'s pixels when it gives them, else the text area
    /// the terminal reported (`CSI 14 t`).
    static func geometry(descriptor: Int32, textAreaPixels: PixelSize?) -> ScreenGeometry {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return ScreenGeometry(columns: 80, rows: 24, cellPixels: nil)
        }
        let columns = Int(size.ws_col)
        let rows = Int(size.ws_row)
        var cell: PixelSize?
        if size.ws_xpixel >= size.ws_col, size.ws_ypixel >= size.ws_row {
            cell = PixelSize(width: Int(size.ws_xpixel) / columns, height: Int(size.ws_ypixel) / rows)
        } else if let area = textAreaPixels, area.width >= columns, area.height >= rows {
            cell = PixelSize(width: area.width / columns, height: area.height / rows)
        }
        return ScreenGeometry(columns: columns, rows: rows, cellPixels: cell)
    }
}

/// Why the full-screen card could not be shown; neutral: the CLI adds what to do.
public enum TurnstileProblem: Error, Equatable, CustomStringConvertible {
    /// An image renderer was asked for inside tmux without `allow-passthrough`.
    case tmuxBlocksImages
    /// An image renderer was asked for and the terminal does not say its cell size in pixels.
    case cellSizeUnknown
    /// The frame could not be drawn when the view opened (the screen is too small): why.
    case cannotDraw(SymbolError)

    /// What happened.
    public var description: String {
        switch self {
        case .tmuxBlocksImages: "tmux does not pass images on"
        case .cellSizeUnknown:
            "the terminal does not say how large its cells are in pixels, so a pixel-exact image cannot be sized"
        case .cannotDraw(let error): error.description
        }
    }
}
