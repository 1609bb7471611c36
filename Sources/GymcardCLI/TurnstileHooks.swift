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
