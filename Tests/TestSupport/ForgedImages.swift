import Imaging

/// CRC-32 as PNG computes it, so tests can forge headers that pass libpng's checks.
public func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// The four bytes of a 32-bit value, most significant first.
public func bigEndian(_ value: UInt32) -> [UInt8] {
    [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
}

/// A PNG chunk: length, type, data and CRC.
public func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
}

/// A valid PNG header claiming the given size, followed by an empty IDAT and IEND: no pixel data.
public func forgedPNGHeader(width: UInt32, height: UInt32) -> [UInt8] {
    PNGCodec.signature + chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 0, 0, 0, 0])
        + chunk("IDAT", []) + chunk("IEND", [])
}
