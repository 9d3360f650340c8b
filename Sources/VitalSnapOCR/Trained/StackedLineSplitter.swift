/// Splits a group of the detector's marked cells that holds two or more lines stacked across their reading
/// direction: a blood pressure monitor's SYS and DIA rows, or a value over its unit's row, whose cells touch so
/// that they are one connected group. A line's cells lie in its core, about half a digit height across; a group
/// much wider than that across is cut at the emptiest bands between its fuller ones, or, where it has none, into
/// equal parts.
///
/// It works on the group's cell counts per band across (bands of one cell), in order, so it is told nothing of
/// the image; `ModelLineLocator` sorts the cells by their position across and gives the counts.
struct StackedLineSplitter: Sendable {
    struct Configuration: Sendable {
        /// A group is looked at only when its cells span more than this many of its digit heights across.
        var minimumExtent = 1.2
        /// A band is a gap between two lines when it holds at most this share of the cells of the fullest band
        /// on each side of it.
        var valleyShare = 0.5
        /// Each part keeps at least this many digit heights of bands (a line's core is about half of one).
        var minimumPart = 0.3
        /// A group at least this many of its digit heights wide across, with no gap between its lines, is cut
        /// into equal parts, one per digit height: the detector marked the rows and the space between them
        /// alike (a BP monitor's SYS and DIA rows close together: the photo detector's cells of a real monitor
        /// showing 132 over 79 were one block 2.0 digit heights across). One line's cells are about half a
        /// digit height across. Chosen on the generated families with the photo detector: at 1.6 it found
        /// more value lines in one look (`eval_detector_families.py`: bp-lcd 68.5% to 76.9%, bp-color 70.5% to
        /// 77.7%, oximeter 83.6% to 87.5%; 1.9: 75.6%, 76.6%, 85.7%), but the whole reader then cut some single
        /// large lines (a scale's 179.0 read 61.1): families 987 / 15 to 989 / 18. At 1.9, 991 / 14.
        var evenSplitExtent = 1.9
        init() {}
    }

    var configuration = Configuration()

    /// Whether a group `bands` wide across (its digit height `bandsPerDigitHeight` bands) may hold more than one
    /// line: only then is it worth sorting its cells and counting them per band.
    func mayHoldStackedLines(bands: Int, bandsPerDigitHeight: Double) -> Bool {
        bandsPerDigitHeight > 0 && Double(bands) > configuration.minimumExtent * bandsPerDigitHeight
    }

    /// The band indices at which new parts start (each in `1..<counts.count`), ascending, into `starts`
    /// (emptied first). `bandsPerDigitHeight` is the group's digit height in bands.
    func split(counts: UnsafeBufferPointer<Int32>, bandsPerDigitHeight: Double, into starts: inout [Int]) {
        starts.removeAll(keepingCapacity: true)
        let n = counts.count
        guard mayHoldStackedLines(bands: n, bandsPerDigitHeight: bandsPerDigitHeight) else { return }
        let minimumBands = max(1, Int((configuration.minimumPart * bandsPerDigitHeight).rounded(.up)))
        var partStart = 0
        var leftMax: Int32 = 0
        for band in 0..<n {
            if band - partStart >= minimumBands, n - band >= minimumBands {
                var rightMax: Int32 = 0
                for k in (band + 1)..<n { rightMax = max(rightMax, counts[k]) }
                let floor = Double(min(leftMax, rightMax)) * configuration.valleyShare
                if Double(counts[band]) <= floor, isValleyFloor(band, counts: counts) {
                    starts.append(band)
                    partStart = band
                    leftMax = counts[band]
                    continue
                }
            }
            leftMax = max(leftMax, counts[band])
        }
        // No gap, yet as wide as two or more lines: equal parts, one per digit height.
        guard starts.isEmpty, Double(n) >= configuration.evenSplitExtent * bandsPerDigitHeight else { return }
        let parts = min(n, max(2, Int((Double(n) / bandsPerDigitHeight).rounded())))
        for part in 1..<parts { starts.append(Int((Double(part * n) / Double(parts)).rounded())) }
    }

    /// Whether the next band is no emptier: a part starts at the valley's floor, not on its slope.
    private func isValleyFloor(_ band: Int, counts: UnsafeBufferPointer<Int32>) -> Bool {
        band + 1 >= counts.count || counts[band + 1] >= counts[band]
    }
}
