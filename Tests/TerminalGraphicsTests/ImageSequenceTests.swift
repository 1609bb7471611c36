import Codabar
import Foundation
import Imaging
import Scanner
import Symbols
import TerminalGraphics
import TestSupport
import Testing

/// Reads a sixel DCS back into a bitmap (register 1 dark), checking the header as the protocol says.
func decodeSixel(_ sequence: String) throws -> BitImage {
    var scalars = Array(sequence.unicodeScalars)
    #expect(String(String.UnicodeScalarView(scalars.prefix(8))) == "\u{1B}P0;1;0q")
    #expect(String(String.UnicodeScalarView(scalars.suffix(2))) == "\u{1B}\\")
    scalars = Array(scalars.dropFirst(8).dropLast(2))
    var index = 0
    func number() -> Int {
        var value = 0
        while index < scalars.count, let digit = Int(String(scalars[index])) {
            value = value * 10 + digit
            index += 1
        }
        return value
    }
    // Raster attributes "Pan;Pad;Ph;Pv: square pixels, then the size.
    try #require(scalars.first == "\"")
    index = 1
    var attributes: [Int] = []
    while true {
        attributes.append(number())
        guard index < scalars.count, scalars[index] == ";" else { break }
        index += 1
    }
    try #require(attributes.count == 4)
    #expect(attributes[0] == 1 && attributes[1] == 1, "pixel aspect 1:1")
    var image = BitImage(width: attributes[2], height: attributes[3])
    var painted = [Bool](repeating: false, count: image.width * image.height)
    var register = 0
    var x = 0
    var bandTop = 0
    while index < scalars.count {
        let scalar = scalars[index]
        index += 1
        switch scalar {
        case "#":
            register = number()
            if index < scalars.count, scalars[index] == ";" {  // a colour definition: skip its values
                while index < scalars.count, scalars[index] == ";" || Int(String(scalars[index])) != nil {
                    index += 1
                }
            }
        case "$": x = 0
        case "-":
            x = 0
            bandTop += 6
        case "!":
            let count = number()
            let bits = Int(scalars[index].value) - 63
            index += 1
            for _ in 0..<count {
                paint(bits)
                x += 1
            }
        default:
            let bits = Int(scalar.value) - 63
            try #require((0...63).contains(bits), "unexpected \(scalar)")
            paint(bits)
            x += 1
        }
    }
    func paint(_ bits: Int) {
        for offset in 0..<6 where bits & (1 << offset) != 0 {
            let y = bandTop + offset
            guard x < image.width, y < image.height else {
                Issue.record("a sixel outside the raster at \(x),\(y)")
                continue
            }
            image[x, y] = register == 1
            painted[y * image.width + x] = true
        }
    }
    #expect(painted.allSatisfy { $0 }, "every pixel painted in one of the two colours")
    return image
}

/// The APC sequences of kitty's protocol: keys and payload of each.
func kittyChunks(_ sequences: [String]) throws -> [(keys: [String: String], payload: String)] {
    try sequences.map { sequence in
        try #require(sequence.hasPrefix("\u{1B}_G") && sequence.hasSuffix("\u{1B}\\"))
        let body = sequence.dropFirst(3).dropLast(2)
        let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        var keys: [String: String] = [:]
        for pair in parts[0].split(separator: ",") {
            let keyValue = pair.split(separator: "=", maxSplits: 1)
            keys[String(keyValue[0])] = keyValue.count > 1 ? String(keyValue[1]) : ""
        }
        return (keys, parts.count > 1 ? String(parts[1]) : "")
    }
}

func bitImage(fromPNG png: [UInt8]) throws -> BitImage {
    let gray = try PNGCodec.decodeGray(png)
    var image = BitImage(width: gray.width, height: gray.height)
    for index in gray.pixels.indices { image.isDark[index] = gray.pixels[index] < 128 }
    return image
}

@Suite("Terminal image sequences decode back to the same bitmap")
struct ImageSequenceTests {
    static func codabar() throws -> BitImage {
        let symbol = try CodabarSymbol(normalizing: "905123456")
        return CodabarRaster.bars(CodabarLayout.standard.row(of: symbol, narrowWidth: 3), height: 97)
    }

    static func qr() throws -> BitImage { try QRSymbol(encoding: "A905123456B").image(moduleSize: 5) }

    @Test("kitty: a=T,f=100, chunks of at most 4096 base64 bytes, m=1 until the last, no scaling keys")
    func kitty() throws {
        for image in [try Self.codabar(), try Self.qr(), BitImage(width: 1500, height: 700)] {
            let png = try PNGCodec.encode(image)
            let chunks = try kittyChunks(KittyGraphics.display(png: png))
            let first = try #require(chunks.first)
            #expect(first.keys["a"] == "T")
            #expect(first.keys["f"] == "100")
            #expect(first.keys["q"] == "2")
            for key in ["c", "r", "s", "v", "w", "h"] {
                #expect(first.keys[key] == nil, "\(key) would scale")
            }
            for (index, chunk) in chunks.enumerated() {
                #expect(chunk.payload.utf8.count <= 4096)
                #expect(chunk.payload.utf8.count % 4 == 0 || index == chunks.count - 1)
                #expect(chunk.keys["m"] == (index == chunks.count - 1 ? "0" : "1"))
                if index > 0 { #expect(Set(chunk.keys.keys) == ["m"]) }
            }
            let data = try #require(Data(base64Encoded: chunks.map(\.payload).joined()))
            #expect(try bitImage(fromPNG: [UInt8](data)) == image)
        }
    }

    @Test("a PNG larger than one chunk is split (a noisy bitmap compresses badly)")
    func kittyManyChunks() throws {
        var image = BitImage(width: 400, height: 400)
        var state: UInt64 = 42
        for index in image.isDark.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            image.isDark[index] = state >> 63 == 1
        }
        let sequences = KittyGraphics.display(png: try PNGCodec.encode(image))
        #expect(sequences.count > 3)
        let data = try #require(Data(base64Encoded: try kittyChunks(sequences).map(\.payload).joined()))
        #expect(try bitImage(fromPNG: [UInt8](data)) == image)
    }

    @Test("sixel: DCS with raster attributes \"1;1;W;H, two colours, back to the same bitmap")
    func sixel() throws {
        for image in [try Self.codabar(), try Self.qr(), BitImage(width: 7, height: 13)] {
            let sequence = SixelImage.encode(image)
            #expect(sequence.contains("\"1;1;\(image.width);\(image.height)#"))
            #expect(try decodeSixel(sequence) == image)
        }
    }

    @Test("a sixel Codabar scans with libzbar after the round trip")
    func sixelScans() async throws {
        let image = try decodeSixel(SixelImage.encode(try Self.codabar()))
        let decoded = await OffThePool.compute { ZBarReader().decode(image.grayImage).map(\.text) }
        #expect(decoded == ["A905123456B"])
    }

    @Test("iTerm2: OSC 1337 File= with the PNG's size in bytes and pixels")
    func iterm() throws {
        let png = try PNGCodec.encode(try Self.qr())
        let sequence = ITermImage.display(png: png, width: try Self.qr().width, height: try Self.qr().height)
        #expect(sequence.hasPrefix("\u{1B}]1337;File=inline=1;"))
        #expect(sequence.hasSuffix("\u{07}"))
        let body = sequence.dropFirst(6).dropLast()
        let parts = body.split(separator: ":", maxSplits: 1)
        let arguments = Set(parts[0].split(separator: ";").map(String.init))
        #expect(
            arguments.isSuperset(of: [
                "size=\(png.count)", "width=\(try Self.qr().width)px", "height=\(try Self.qr().height)px",
            ]))
        let data = try #require(Data(base64Encoded: String(parts[1])))
        let qr = try Self.qr()
        #expect(try bitImage(fromPNG: [UInt8](data)) == qr)
    }

    @Test("tmux pass-through doubles every ESC and ends with ST")
    func tmux() {
        let wrapped = TmuxPassthrough.wrap("\u{1B}_Ga=q;AAAA\u{1B}\\")
        #expect(wrapped == "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=q;AAAA\u{1B}\u{1B}\\\u{1B}\\")
    }
}
