extension Array where Element == Double {
    /// The `rank`-th smallest element (from 0), what `sorted()[rank]` is, found without sorting (Hoare's
    /// selection, the median of three as the pivot); the array is reordered. The read guard's footprint
    /// takes three per row it walks, and the locator two per photo, where sorting cost more than the rest.
    mutating func orderStatistic(_ rank: Int) -> Double {
        withUnsafeMutableBufferPointer { buffer in
            var (low, high) = (0, buffer.count - 1)
            while low < high {
                let middle = low + (high - low) / 2
                let (a, b, c) = (buffer[low], buffer[middle], buffer[high])
                let pivot = Swift.max(Swift.min(a, b), Swift.min(Swift.max(a, b), c))
                var (i, j) = (low, high)
                while i <= j {
                    while buffer[i] < pivot { i += 1 }
                    while buffer[j] > pivot { j -= 1 }
                    if i <= j {
                        buffer.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                if rank <= j {
                    high = j
                } else if rank >= i {
                    low = i
                } else {
                    return buffer[rank]
                }
            }
            return buffer[rank]
        }
    }
}
