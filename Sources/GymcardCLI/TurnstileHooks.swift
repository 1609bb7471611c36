import Backlight
import Console
import Turnstile

extension Interrupt {
    /// The full-screen card's hooks: its raw terminal and its way out, put back by a signal.
    static var turnstileHooks: TurnstileView.SignalHooks {
        TurnstileView.SignalHooks(
            terminal: { descriptor, settings in
                if let settings {
                    terminalSilenced(descriptor, restoring: settings)
                } else {
                    terminalRestored()
                }
            }, fullScreen: { leaveFullScreen(with: $0) })
    }
}

extension TurnstileView.SignalHooks {
    /// These hooks, and the laptop's backlight at full from when the view takes the screen until it gives it
    /// back (ARCHITECTURE §16): a guardian process raises it and puts it back when the view closes, when a
    /// signal ends this process, or when this process dies any other way.
    func raisingBacklight(folder: BacklightFolder, environment: [String: String]) -> Self {
        let guardian = GuardianHolder()
        var hooks = self
        let fullScreen = self.fullScreen
        hooks.fullScreen = { leave in
            fullScreen(leave)
            if leave != nil {
                guard guardian.current == nil,
                    let started = BacklightGuard.start(folder: folder, environment: environment)
                else { return }
                guardian.current = started
                Interrupt.guarded(
                    by: (started.descriptor, { BacklightGuard.release($0, timeoutMilliseconds: 3000) }))
            } else if let started = guardian.current {
                Interrupt.guarded(by: nil)
                guardian.current = nil
                started.finish()
            }
        }
        return hooks
    }
}

/// The guardian of one view, between the hook that opens it and the one that closes it (the view runs on
/// one thread).
private final class GuardianHolder {
    var current: BacklightGuard?
}
