/// Builds a grey image row by row, reduced by a whole factor: each pixel is the mean of a `factor` ×
/// `factor` block of the source (the blocks at the right and bottom edges of what they hold), so that a
/// decoder feeding it rows needs memory for the result only, never for the whole source.
struct GrayRowReducer {
    let width: Int
    let height: Int
    let factor: Int
    let reducedWidth: Int
    let reducedHeight: Int
    private var sums: [Int]
    private var pixels: [UInt8]
    private var rowsAppended = 0

    /// The reduction factor for a source of this size so that the longer side stays at least
    /// `minimumLongSide` (1 when that is the source's own, or more).
    static func factor(width: Int, height: Int, minimumLongSide: Int) -> Int {
        minimumLongSide == .max ? 1 : Swift.max(1, Swift.max(width, height) / Swift.max(1, minimumLongSide))
    }

    init(width: Int, height: Int, factor: Int) {
        self.width = width
        self.height = height
        self.factor = Swift.max(1, factor)
        reducedWidth = (width + self.factor - 1) / self.factor
        reducedHeight = (height + self.factor - 1) / self.factor
        sums = [Int](repeating: 0, count: self.factor > 1 ? reducedWidth : 0)
        pixels = [UInt8](repeating: 255, count: reducedWidth * reducedHeight)
    }

    /// Whether every source row has been appended.
    var isComplete: Bool { rowsAppended == height }

    /// Adds the next source row (`width` samples).
    mutating func append(_ row: UnsafeBufferPointer<UInt8>) {
        guard rowsAppended < height, let source = row.baseAddress, row.count >= width else { return }
        let outputRow = rowsAppended / factor
        let (width, factor, reducedWidth) = (self.width, self.factor, self.reducedWidth)
        // Raw pointers: these loops see every pixel of images up to 200 MP, and must stay quick in a debug
        // build too.
        pixels.withUnsafeMutableBufferPointer { output in
            guard let output = output.baseAddress else { return }
            if factor == 1 {
                (output + outputRow * width).update(from: source, count: width)
                return
            }
            sums.withUnsafeMutableBufferPointer { sums in
                guard let sums = sums.baseAddress else { return }
                var x = 0
                for column in 0..<reducedWidth {
                    var sum = 0
                    let end = Swift.min(width, x + factor)
                    while x < end {
                        sum &+= Int(source[x])
                        x &+= 1
                    }
                    sums[column] &+= sum
                }
                let rowsInBlock = Swift.min(factor, height - outputRow * factor)
                guard rowsAppended - outputRow * factor == rowsInBlock - 1 else { return }
                let base = output + outputRow * reducedWidth
                for column in 0..<reducedWidth {
                    let columnsInBlock = Swift.min(factor, width - column * factor)
                    base[column] = UInt8(truncatingIfNeeded: sums[column] / (columnsInBlock * rowsInBlock))
                    sums[column] = 0
                }
            }
        }
        rowsAppended += 1
    }

    /// The reduced image (rows never appended are white).
    var image: GrayImage { GrayImage(width: reducedWidth, height: reducedHeight, pixels: pixels) }
}
