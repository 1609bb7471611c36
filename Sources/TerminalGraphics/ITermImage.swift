import FoundationEssentials

/// iTerm2's inline image sequence (OSC 1337 `File=`), with the size given in pixels so that iTerm2
/// draws the PNG one to one.
public enum ITermImage {
    /// The OSC sequence that shows `png` (`width` × `height` pixels) at the cursor.
    public static func display(png: [UInt8], width: Int, height: Int) -> String {
        "\u{1B}]1337;File=inline=1;size=\(png.count);width=\(width)px;height=\(height)px;"
            + "preserveAspectRatio=0;doNotMoveCursor=1:" + Data(png).base64EncodedString() + "\u{07}"
    }
}
