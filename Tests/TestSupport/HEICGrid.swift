import Foundation

/// A HEIC made of a grid of tiles, as iPhones write their photos: each tile a hidden HEVC image, the
/// primary item a `grid` that lays them out (ISO/IEC 23008-12, the image grid derivation). Debian's heif-enc
/// (libheif 1.15) writes no grid (libheif can encode one only from 1.18 on), so the tiles are encoded with
/// heif-enc one by one and joined here: each tile's coded data and properties (its decoder configuration,
/// size and pixel information) move into one file under a grid item.
public enum HEICGrid {
    /// Why the tiles could not be joined.
    public struct Failure: Error, CustomStringConvertible {
        /// What Python said.
        public var description: String
    }

    /// Joins `tiles` (single-image HEIC files of equal size, row by row) into a `rows` × `columns` grid
    /// HEIC of `width` × `height` pixels at `output`.
    public static func join(
        tiles: [String], rows: Int, columns: Int, width: Int, height: Int, into output: String
    )
        async throws
    {
        let arguments = [output, String(rows), String(columns), String(width), String(height)] + tiles
        let (status, _, stderr) = try await Interop.runPython(script, arguments)
        guard status == 0 else { throw Failure(description: stderr) }
    }

    private static let script = """
        import struct, sys

        def boxes(data, start, end):
            while start < end:
                size, kind = struct.unpack(">I4s", data[start:start + 8])
                yield kind.decode(), start, size
                start += size

        def child(data, start, size, header, kind):
            for name, at, length in boxes(data, start + header, start + size):
                if name == kind:
                    return at, length
            raise ValueError("no " + kind + " box")

        def box(kind, payload):
            return struct.pack(">I4s", 8 + len(payload), kind.encode()) + payload

        def full(kind, version, flags, payload):
            return box(kind, struct.pack(">I", version << 24 | flags) + payload)

        def tile(path):
            # heif-enc's file: ftyp, then meta (hdlr, pitm, iloc, iinf, iprp) for its one item, then mdat.
            data = open(path, "rb").read()
            top = {name: (at, length) for name, at, length in boxes(data, 0, len(data))}
            meta_at, meta_length = top["meta"]
            ftyp = data[top["ftyp"][0]:top["ftyp"][0] + top["ftyp"][1]]
            hdlr_at, hdlr_length = child(data, meta_at, meta_length, 12, "hdlr")
            iprp_at, iprp_length = child(data, meta_at, meta_length, 12, "iprp")
            ipco_at, ipco_length = child(data, iprp_at, iprp_length, 8, "ipco")
            properties = [data[at:at + n] for _, at, n in boxes(data, ipco_at + 8, ipco_at + ipco_length)]
            ipma_at, _ = child(data, iprp_at, iprp_length, 8, "ipma")
            assert data[ipma_at + 8:ipma_at + 12] == b"\\0\\0\\0\\0" and data[ipma_at + 12:ipma_at + 16] == b"\\0\\0\\0\\1"
            count = data[ipma_at + 18]
            associations = list(data[ipma_at + 19:ipma_at + 19 + count])
            iloc_at, _ = child(data, meta_at, meta_length, 12, "iloc")
            assert data[iloc_at + 8] == 0 and data[iloc_at + 12:iloc_at + 14] == b"\\x44\\x40", "iloc layout"
            _, _, base, extents, offset, length = struct.unpack(">HHIHII", data[iloc_at + 16:iloc_at + 34])
            assert extents == 1
            coded = data[base + offset:base + offset + length]
            return ftyp, data[hdlr_at:hdlr_at + hdlr_length], properties, associations, coded

        output, rows, columns, width, height = sys.argv[1], *map(int, sys.argv[2:6])
        tiles = [tile(path) for path in sys.argv[6:]]
        assert len(tiles) == rows * columns
        grid_id = len(tiles) + 1
        ipco, ipma = [], []
        for index, (_, _, properties, associations, _) in enumerate(tiles):
            first = len(ipco)
            ipco += properties
            ipma.append((index + 1, [(a & 0x80) | ((a & 0x7F) + first) for a in associations]))
        ipco.append(full("ispe", 0, 0, struct.pack(">II", width, height)))
        ipma.append((grid_id, [len(ipco)]))
        # The tiles are hidden items (flag 1), as a phone's are; the grid is the primary item.
        items = [full("infe", 2, 1, struct.pack(">HH4s", i + 1, 0, b"hvc1") + b"\\0") for i in range(len(tiles))]
        items.append(full("infe", 2, 0, struct.pack(">HH4s", grid_id, 0, b"grid") + b"\\0"))
        iinf = full("iinf", 0, 0, struct.pack(">H", len(items)) + b"".join(items))
        references = b"".join(struct.pack(">H", i + 1) for i in range(len(tiles)))
        iref = full("iref", 0, 0, box("dimg", struct.pack(">HH", grid_id, len(tiles)) + references))
        ipma_payload = struct.pack(">I", len(ipma)) + b"".join(
            struct.pack(">HB", item, len(a)) + bytes(a) for item, a in ipma)
        iprp = box("iprp", box("ipco", b"".join(ipco)) + full("ipma", 0, 0, ipma_payload))
        grid = struct.pack(">BBBBHH", 0, 0, rows - 1, columns - 1, width, height)
        chunks = [t[4] for t in tiles] + [grid]

        def meta(mdat_data_at):
            entries, at = [], mdat_data_at
            for index, chunk in enumerate(chunks):
                entries.append(struct.pack(">HHIHII", index + 1, 0, 0, 1, at, len(chunk)))
                at += len(chunk)
            iloc = full("iloc", 0, 0, b"\\x44\\x40" + struct.pack(">H", len(chunks)) + b"".join(entries))
            pitm = full("pitm", 0, 0, struct.pack(">H", grid_id))
            return full("meta", 0, 0, tiles[0][1] + pitm + iloc + iinf + iref + iprp)

        ftyp = tiles[0][0]
        mdat_data_at = len(ftyp) + len(meta(0)) + 8
        with open(output, "wb") as file:
            file.write(ftyp + meta(mdat_data_at) + box("mdat", b"".join(chunks)))
        """
}
