import JSONOutput
import Scanner
import Symbologies

extension PhotoScan {
    /// The `scan --json` line of a read: file, id (the card's exact text), symbology (the card's, as
    /// `--symbology` names it: a QR code holding a Codabar ID is the Codabar card), stage, confirmations
    /// and milliseconds.
    public static func jsonLine(
        file: String, finding: ScanFinding, content: BarcodeContent, milliseconds: Int
    ) -> String {
        JSONText.line(
            ReadLine(
                file: file, id: content.text, symbology: content.symbology.name, stage: finding.stage,
                confirmations: finding.confirmations, milliseconds: milliseconds))
    }

    /// The `scan --json --all` line of a barcode that is no member ID (a QR code's web address): `text`
    /// instead of `id`, and the symbology it was read as.
    public static func jsonLine(file: String, other finding: ScanFinding, milliseconds: Int) -> String {
        JSONText.line(
            OtherLine(
                file: file, text: finding.text, symbology: finding.symbology.name, stage: finding.stage,
                confirmations: finding.confirmations, milliseconds: milliseconds))
    }

    /// The `scan --json` line of a photo that gave no ID: the message said on standard error and the exit
    /// status it gives.
    public static func jsonLine(file: String, error: String, status: Int32) -> String {
        JSONText.line(FailureLine(file: file, error: error, status: status))
    }

    private struct ReadLine: Encodable {
        var file: String
        var id: String
        var symbology: String
        var stage: String
        var confirmations: Int
        var milliseconds: Int
    }

    private struct OtherLine: Encodable {
        var file: String
        var text: String
        var symbology: String
        var stage: String
        var confirmations: Int
        var milliseconds: Int
    }

    private struct FailureLine: Encodable {
        var file: String
        var error: String
        var status: Int32
    }
}
