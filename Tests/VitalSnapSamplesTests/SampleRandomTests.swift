import XCTest
@testable import VitalSnapSamples

final class SampleRandomTests: XCTestCase {
    func testSameSeedGivesSameSequence() {
        var a = SampleRandom(seed: 42), b = SampleRandom(seed: 42)
        for _ in 0..<1000 { XCTAssertEqual(a.next(), b.next()) }
    }

    func testDifferentSeedsDiffer() {
        var a = SampleRandom(seed: 1), b = SampleRandom(seed: 2)
        let sa = (0..<16).map { _ in a.next() }, sb = (0..<16).map { _ in b.next() }
        XCTAssertNotEqual(sa, sb)
    }

    /// Pins the algorithm: if these change, every checked-in sample changes too.
    func testKnownValues() {
        var sm = SplitMix64(state: 0)
        XCTAssertEqual(sm.next(), 0xE220_A839_7B1D_CDAF)  // published SplitMix64 output for seed 0
        var r = SampleRandom(seed: 0)
        let first = r.next()
        var again = SampleRandom(seed: 0)
        XCTAssertEqual(first, again.next())
        XCTAssertNotEqual(first, 0)
    }

    func testRangesAreRespectedAndCovered() {
        var r = SampleRandom(seed: 7)
        var seen = Set<Int>()
        for _ in 0..<2000 {
            let i = r.int(3...9)
            XCTAssert((3...9).contains(i))
            seen.insert(i)
            let u = r.uniform(-2.5...4)
            XCTAssert(u >= -2.5 && u <= 4)
            let x = r.unit()
            XCTAssert(x >= 0 && x < 1)
        }
        XCTAssertEqual(seen, Set(3...9))
    }

    func testGaussianHasUnitVariance() {
        var r = SampleRandom(seed: 99)
        let xs = (0..<20000).map { _ in r.gaussian() }
        let mean = xs.reduce(0, +) / Double(xs.count)
        let variance = xs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(xs.count)
        XCTAssertEqual(mean, 0, accuracy: 0.03)
        XCTAssertEqual(variance, 1, accuracy: 0.05)
    }

    func testForkIsIndependentOfLaterDraws() {
        var a = SampleRandom(seed: 5), b = SampleRandom(seed: 5)
        var fa = a.fork(), fb = b.fork()
        _ = a.next()
        XCTAssertEqual(fa.next(), fb.next())
    }
}
