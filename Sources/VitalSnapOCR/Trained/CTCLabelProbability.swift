import Foundation

/// The probability a CTC output gives a text, summed over every alignment of that text to its columns (the
/// forward algorithm of Graves et al., 2006): how sure the network is of the reading, where the probability of
/// the single best alignment (the best path) also counts its doubt about *where* each character starts and
/// stops, which columns of blank between clear characters make low on a long line.
///
/// One per recognizer; its buffers are kept between calls.
struct CTCLabelProbability: Sendable {
    private var alpha: [Double] = []
    private var next: [Double] = []
    private var extended: [Int] = []

    /// `log p(labels)` for `columns` output columns, where `logProbability(t, k)` is the log probability of class
    /// `k` (0 the blank) at column `t`. `labels` are class indices, blanks excluded. -infinity when the columns
    /// cannot hold the labels.
    mutating func logProbability(
        of labels: [Int], columns: Int, _ logProbability: (_ column: Int, _ classIndex: Int) -> Double
    ) -> Double {
        guard columns > 0 else { return labels.isEmpty ? 0 : -.infinity }
        // The labels with a blank before, between and after them: 2L + 1 states.
        extended.removeAll(keepingCapacity: true)
        extended.append(0)
        for label in labels {
            extended.append(label)
            extended.append(0)
        }
        let states = extended.count
        if alpha.count < states {
            alpha = [Double](repeating: 0, count: states)
            next = [Double](repeating: 0, count: states)
        }
        for s in 0..<states { alpha[s] = -.infinity }
        alpha[0] = logProbability(0, 0)
        if states > 1 { alpha[1] = logProbability(0, extended[1]) }
        for t in 1..<columns {
            for s in 0..<states {
                var a = alpha[s]
                if s >= 1 { a = Self.logAdd(a, alpha[s - 1]) }
                // A label may follow the label before the blank between them, unless both are the same.
                if s >= 2 && extended[s] != 0 && extended[s] != extended[s - 2] { a = Self.logAdd(a, alpha[s - 2]) }
                next[s] = a == -.infinity ? a : a + logProbability(t, extended[s])
            }
            swap(&alpha, &next)
        }
        return states > 1 ? Self.logAdd(alpha[states - 1], alpha[states - 2]) : alpha[0]
    }

    static func logAdd(_ a: Double, _ b: Double) -> Double {
        if a == -.infinity { return b }
        if b == -.infinity { return a }
        let m = max(a, b)
        return m + log(exp(a - m) + exp(b - m))
    }
}
