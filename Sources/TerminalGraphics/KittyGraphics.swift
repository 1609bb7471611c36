import FoundationEssentials

/// kitty's graphics protocol (also Ghostty, WezTerm, Konsole): a PNG sent in base64 chunks of an APC
/// sequence, shown at the cursor at its own pixel size.
///
/// The size keys `c`/`r`/`s`/`v` are never sent on display: kitty scales with a linear filter and has no
/// nearest-neighbour mode (kitty #7328, #10188), and blurred bar edges are what make 1-D barcodes fail.
public enum KittyGraphics {
    /// Most base64 bytes one chunk may carry (the protocol's limit for data sent in escape codes).
    public static let maximumChunkBytes = 4096

    /// The image number gymcard's drawings use, so they can be deleted without touching others.
    public static let imageNumber = 4711

    /// The sequences that transmit and display `png` at the cursor: `a=T,f=100`, responses suppressed
    /// (`q=2`), the cursor left where it is (`C=1`).
    public static func display(png: [UInt8]) -> [String] {
        let payload = Data(png).base64EncodedString()
        var chunks: [Substring] = []
        var start = payload.startIndex
        while start < payload.endIndex {
            let end =
                payload.index(start, offsetBy: maximumChunkBytes, limitedBy: payload.endIndex)
                ?? payload.endIndex
            chunks.append(payload[start..<end])
            start = end
        }
        if chunks.isEmpty { chunks = [""] }
        return chunks.enumerated().map { index, chunk in
            let more = index < chunks.count - 1 ? 1 : 0
            let keys = index == 0 ? "a=T,f=100,i=\(imageNumber),q=2,C=1,m=\(more)" : "m=\(more)"
            return "\u{1B}_G\(keys);\(chunk)\u{1B}\\"
        }
    }

    /// Deletes gymcard's image and frees its data.
    public static let deleteImage = "\u{1B}_Ga=d,d=I,i=\(imageNumber),q=2\u{1B}\\"

    /// The query the probe sends: a 1×1 RGB image kitty checks but does not store (`a=q`); a terminal
    /// with the protocol answers `ESC _G i=31;OK ESC \`.
    public static let query = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"
}
