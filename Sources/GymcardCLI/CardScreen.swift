import ArgumentParser
import Backlight
import CampusFeature
import CardFeature
import Console
import GymcardCore
import Turnstile

/// Where `show` and `share` put a drawing for a person: the full screen when standard output is a
/// terminal that can take it, else printed into the scrollback (in plain characters when colour is off,
/// with a warning that names the option that writes an image instead).
struct CardScreen {
    let terminal: Terminal
    let context: Context
    /// Why colour is off (`--no-color`, `NO_COLOR`, `TERM=dumb`, a pipe), or `nil`.
    let colourOff: String?

    init(_ context: Context, noColor: Bool) {
        terminal = Terminal(environment: context.environment)
        self.context = context
        colourOff = terminal.reasonColourIsOff(noColorFlag: noColor)
    }

    /// Shows `content` full screen until a key, the timeout or Ctrl-C, and returns true; false when the
    /// screen cannot be taken (not a terminal, `TERM=dumb`, or the view declined), to print instead. A
    /// status other than 0 (Ctrl-C: 130) ends the process after the view's notices. With `brightness`, the
    /// laptop's backlight is at full while the card is on the screen.
    func fullScreen(
        _ content: TurnstileContent, renderer: TurnstileRenderer?, timeout: Double, brightness: Bool = false
    ) throws -> Bool {
        guard canTakeScreen else { return false }
        var hooks = Interrupt.turnstileHooks
        if brightness {
            hooks = hooks.raisingBacklight(
                folder: BacklightFolder(environment: context.environment), environment: context.environment)
        }
        // Colour here is the text's bold and dim: the drawing is black on white either way.
        let view = TurnstileView(
            content: content, choice: renderer, timeoutSeconds: timeout, colour: colourOff == nil,
            environment: context.environment, stateDirectory: context.directories.stateHome + "/gymcard",
            tmuxPassesImages: { ChildProcess.tmuxPassesImages() }, hooks: hooks)
        guard let (status, notices) = try view.run() else { return false }
        for notice in notices { Terminal.standardError.say(notice) }
        if status != 0 { throw ExitCode(status) }
        return true
    }

    /// Whether the full-screen card turns the backlight up itself (`brightness`, and a laptop's backlight
    /// to turn): then the hint does not ask the person to.
    func raisesBacklight(_ brightness: Bool) -> Bool {
        brightness && BacklightFolder(environment: context.environment).preferred() != nil
    }

    /// Whether ``fullScreen(_:renderer:timeout:brightness:)`` can take the screen: standard output is a
    /// terminal, and not a dumb one (it has no alternate screen or cursor addressing).
    var canTakeScreen: Bool { terminal.stdoutIsTerminal && context.environment["TERM"] != "dumb" }

    /// Prints `drawing` (turned, or its `qrCode`, when the terminal is too narrow for it); `what` is drawn
    /// and `imageOption` writes it as an image instead.
    func draw(
        _ drawing: TurnstileContent.Drawing, qrCode: QRSymbol?, what: String, imageOption: String
    ) throws {
        if let colourOff {
            Terminal.standardError.say(
                "colours are off (\(colourOff)): the \(what) is drawn in plain characters and reads only on a "
                    + "light background; for a reliable image use \(imageOption)")
        }
        let advice = ExitTable.tooSmallAdvice("the \(what)", imageOption)
        do {
            let card = try InlineCard.lines(
                drawing, qrCode: qrCode, palette: colourOff == nil ? .blackOnWhite : .plain,
                columns: terminal.columns, rows: terminal.rows)
            if let notice = card.notice { Terminal.standardError.say(notice + "; " + advice) }
            terminal.printLines(card.lines)
        } catch {
            throw Failure(
                error.description + (error.isTerminalTooSmall ? "; " + advice : ""), status: .ioError)
        }
    }
}
