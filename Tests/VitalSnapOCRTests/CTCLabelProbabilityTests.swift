import Foundation
import Testing
@testable import VitalSnapOCR

/// The forward algorithm against the sum it stands for: every path of classes over the columns that collapses
/// (repeats merged, blanks dropped) to the text.
struct CTCLabelProbabilityTests {
    /// Column-wise probabilities of 3 classes (blank, 1, 2) over 5 columns, each column summing to 1.
    let probabilities: [[Double]] = [
        [0.6, 0.3, 0.1], [0.2, 0.7, 0.1], [0.5, 0.2, 0.3], [0.1, 0.8, 0.1], [0.7, 0.1, 0.2],
    ]

    func bruteForce(_ labels: [Int]) -> Double {
        let columns = probabilities.count, classes = probabilities[0].count
        var total = 0.0
        for code in 0..<Int(pow(Double(classes), Double(columns))) {
            var path: [Int] = [], c = code
            for _ in 0..<columns { path.append(c % classes); c /= classes }
            var collapsed: [Int] = [], previous = 0
            for k in path {
                if k != 0 && k != previous { collapsed.append(k) }
                previous = k
            }
            if collapsed == labels { total += zip(path.indices, path).map { probabilities[$0][$1] }.reduce(1, *) }
        }
        return total
    }

    @Test(arguments: [[1], [1, 1], [1, 2], [2, 1, 1], [], [1, 2, 1, 2]])
    func isTheSumOverEveryAlignment(labels: [Int]) {
        var forward = CTCLabelProbability()
        let p = exp(forward.logProbability(of: labels, columns: probabilities.count) { t, k in log(probabilities[t][k]) })
        #expect(abs(p - bruteForce(labels)) < 1e-12, "\(labels)")
    }

    @Test func isAtLeastTheBestPathsProbabilityAndTheTextsAddUpToOne() {
        var forward = CTCLabelProbability()
        // Best path: blank 1 blank 1 blank -> "11", probability 0.6 * 0.7 * 0.5 * 0.8 * 0.7.
        let text = exp(forward.logProbability(of: [1, 1], columns: 5) { t, k in log(probabilities[t][k]) })
        #expect(text > 0.6 * 0.7 * 0.5 * 0.8 * 0.7)
        // Over all texts of up to 5 labels the probabilities sum to 1.
        var sum = 0.0
        func texts(_ prefix: [Int]) {
            sum += exp(forward.logProbability(of: prefix, columns: 5) { t, k in log(probabilities[t][k]) })
            if prefix.count < 5 { for k in 1...2 { texts(prefix + [k]) } }
        }
        texts([])
        #expect(abs(sum - 1) < 1e-9)
    }

    @Test func moreLabelsThanColumnsCanHoldHaveNoProbability() {
        var forward = CTCLabelProbability()
        #expect(forward.logProbability(of: [1, 1, 1], columns: 4) { _, _ in log(1.0 / 3) } == -.infinity)
        #expect(forward.logProbability(of: [1], columns: 0) { _, _ in 0 } == -.infinity)
    }
}
