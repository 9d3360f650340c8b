/// Sorts cells by a key, stably (cells with equal keys keep their order), keeping its storage between calls:
/// the standard library's `sort(by:)` allocates a merge buffer and a list of runs on every call of more than 20
/// elements, and a stable sort gives the same order whichever algorithm makes it.
///
/// Each cell's key is worked out once; the (key, cell) pairs are merge-sorted bottom up, between two buffers.
struct StableCellSort: Sendable {
    private var pairs: [(key: Double, cell: Int32)] = []
    private var merged: [(key: Double, cell: Int32)] = []

    /// `cells` in increasing order of `key` (which must not be NaN).
    mutating func sort(_ cells: inout [Int32], by key: (Int32) -> Double) {
        let n = cells.count
        guard n > 1 else { return }
        pairs.removeAll(keepingCapacity: true)
        for cell in cells { pairs.append((key(cell), cell)) }
        merged.removeAll(keepingCapacity: true)
        merged.append(contentsOf: pairs)
        var width = 1
        while width < n {
            var start = 0
            while start < n {
                let middle = min(start + width, n), end = min(start + 2 * width, n)
                var left = start, right = middle
                for i in start..<end {
                    // From the right run only when strictly smaller: ties keep the left run's (earlier) cell.
                    if right < end && (left >= middle || pairs[right].key < pairs[left].key) {
                        merged[i] = pairs[right]
                        right += 1
                    } else {
                        merged[i] = pairs[left]
                        left += 1
                    }
                }
                start = end
            }
            swap(&pairs, &merged)
            width *= 2
        }
        for i in 0..<n { cells[i] = pairs[i].cell }
    }
}
