import GymcardCore
import JSONOutput
import Scanner
import Symbologies
import TerminalText

extension PhotoScan {
    /// What `scan` prints for each photo: its IDs as text (the photo's name first when there are several
    /// photos) or as JSON lines, and with `--all` the barcodes that are no member ID after them.
    public struct Output: Sendable {
        /// JSON lines instead of text.
        public var json: Bool
        /// Every ID and every other barcode, not only the best ID.
        public var all: Bool
        /// Whether each text line starts with the photo's name (several photos were given).
        public var namesPhotos: Bool

        /// How `scan` prints.
        public init(json: Bool, all: Bool, namesPhotos: Bool) {
            self.json = json
            self.all = all
            self.namesPhotos = namesPhotos
        }

        /// The lines of a photo that read: its best ID (with `all` or `every`, every ID and then the other
        /// barcodes; with `only`, that ID's).
        public func lines(_ photo: Reads, of name: String, every: Bool = false, only: BarcodeContent? = nil)
            -> [String]
        {
            let chosen =
                all || every
                ? photo.reads : [photo.reads.first { $0.content == only } ?? photo.reads[0]]
            return chosen.map { finding, content in
                // A Code 128 or QR card's text may hold any printable character: made terminal-safe.
                json
                    ? JSONText.line(
                        ReadLine(
                            file: name, id: content.text, symbology: content.symbology.name,
                            stage: finding.stage,
                            confirmations: finding.confirmations, milliseconds: photo.milliseconds))
                    : text(content.text, of: name)
            } + (all ? lines(others: photo.others, of: name, milliseconds: photo.milliseconds) : [])
        }

        /// With `all`, the barcodes that are no member ID (a QR code's web address): as text, or as JSON
        /// lines with `text` instead of `id` and the symbology each was read as.
        public func lines(others: [ScanFinding], of name: String, milliseconds: Int) -> [String] {
            guard all else { return [] }
            return others.map { finding in
                json
                    ? JSONText.line(
                        OtherLine(
                            file: name, text: finding.text, symbology: finding.symbology.name,
                            stage: finding.stage, confirmations: finding.confirmations,
                            milliseconds: milliseconds))
                    : text(finding.text, of: name)
            }
        }

        /// With `json`, the line of a photo that gave no ID: the message said on standard error and the
        /// exit status it gives.
        public func failureLine(of name: String, message: String, status: Int32) -> String? {
            json ? JSONText.line(FailureLine(file: name, error: message, status: status)) : nil
        }

        private func text(_ text: String, of name: String) -> String {
            namesPhotos ? "\(name.terminalSafe): \(text.terminalSafe)" : text.terminalSafe
        }
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
