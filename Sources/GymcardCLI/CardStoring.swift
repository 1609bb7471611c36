import CardFeature
import Console
import GymcardCore

/// Storing the card as `set` and `scan --save` both do: asking before another ID replaces the stored one
/// (on a terminal, when asked to), then saying what was stored and whether it is encrypted.
enum CardStoring {
    /// Stores `content` as the card (`set`, `scan --save`) and says so; with `askFirst` on a terminal, asks
    /// before replacing a card with another ID.
    static func store(
        _ content: BarcodeContent, label: String?, noPassphrase: Bool, passphrases: PassphraseOptions,
        askFirst: Bool = false, in context: Context
    ) throws {
        let access = CardAccess(context: context, passphrases: passphrases.passphrases(offersNone: true))
        var confirm: ((CardRecord) -> Bool)?
        if askFirst && TerminalPrompt.isAvailable {
            confirm = { TerminalPrompt.confirm(CardAccess.Stored.replaceQuestion($0)) ?? false }
        }
        let stored = try access.store(
            content, label: label, noPassphrase: noPassphrase, confirmReplacing: confirm)
        guard stored.written else { return Terminal.standardError.say("kept the stored card") }
        Terminal.standardError.write(stored.summary(of: content))
        if !stored.encrypted { Terminal.standardError.warnUnencrypted(access.store) }
    }
}
