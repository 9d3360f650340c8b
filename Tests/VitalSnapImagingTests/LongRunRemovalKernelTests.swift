import XCTest
@testable import VitalSnapImaging

final class LongRunRemovalKernelTests: XCTestCase {
    private func removed(_ rows: [String], horizontal: Int, vertical: Int, margin: Int) -> [String] {
        var mask = MaskArt.mask(rows)
        var scratch = InkMask(width: 0, height: 0)
        LongRunRemoval(maximumHorizontal: horizontal, maximumVertical: vertical, margin: margin).apply(&mask, scratch: &scratch)
        return MaskArt.picture(mask)
    }

    func testRunsLongerThanTheMaximumGoAndRunsUpToItStay() {
        let before = [
            "##############..",  // 14 long: removed
            "................",
            "..##########....",  // exactly 10: kept
            "................",
            "#..............#",
            "#..............#",
            "#..............#",
            "#..............#",
            "#...............",  // left column 5 tall: removed; right column 4 tall: kept
        ]
        XCTAssertEqual(removed(before, horizontal: 10, vertical: 4, margin: 0), [
            "................",
            "................",
            "..##########....",
            "................",
            "...............#",
            "...............#",
            "...............#",
            "...............#",
            "................",
        ])
    }

    func testBothDirectionsAreJudgedOnTheOriginalMask() {
        // A long bar crossing a short vertical stroke: the crossing pixel goes with the bar, but the stroke's
        // vertical run (5 with the crossing pixel) is judged whole and stays.
        let before = [
            "....#.....",
            "....#.....",
            "##########",
            "....#.....",
            "....#.....",
        ]
        XCTAssertEqual(removed(before, horizontal: 6, vertical: 6, margin: 0), [
            "....#.....",
            "....#.....",
            "..........",
            "....#.....",
            "....#.....",
        ])
    }

    func testTheMarginClearsInkRightBesideARemovedRun() {
        // A digit-like blob touching a bezel edge: the rows within the margin of the edge go, the rest stays.
        let before = [
            "..............",
            "##############",
            "...####.......",
            "...####.......",
            "...####.......",
            "...####.......",
        ]
        XCTAssertEqual(removed(before, horizontal: 8, vertical: 8, margin: 2), [
            "..............",
            "..............",
            "..............",
            "..............",
            "...####.......",
            "...####.......",
        ])
        XCTAssertEqual(removed(before, horizontal: 8, vertical: 8, margin: 0), [
            "..............",
            "..............",
            "...####.......",
            "...####.......",
            "...####.......",
            "...####.......",
        ])
    }

    func testAMaskWithoutLongRunsIsUnchanged() {
        var rng = SplitMix64(seed: 31)
        var mask = InkMask(width: 30, height: 20)
        // Isolated short dashes only: no run longer than 3 either way.
        for y in stride(from: 0, to: 20, by: 2) {
            for x in stride(from: Int.random(in: 0...3, using: &rng), to: 27, by: 5) {
                for i in 0..<3 { mask[x + i, y] = true }
            }
        }
        var copy = mask, scratch = InkMask(width: 0, height: 0)
        LongRunRemoval(maximumHorizontal: 3, maximumVertical: 1, margin: 2).apply(&copy, scratch: &scratch)
        XCTAssertEqual(copy, mask)
    }
}
