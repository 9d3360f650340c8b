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

    func testMatchesThePlainReferenceOnRandomMasks() {
        var state: UInt64 = 0x9E37_79B9
        func random(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        for trial in 0..<300 {
            let w = 1 + random(60), h = 1 + random(60)
            var mask = InkMask(width: w, height: h)
            // Random rectangles of ink (some long and thin) over sparse noise.
            for _ in 0..<random(12) {
                let x = random(w), y = random(h), rw = 1 + random(w), rh = 1 + random(h)
                for yy in y..<min(h, y + rh) { for xx in x..<min(w, x + rw) { mask.pixels[yy * w + xx] = 1 } }
            }
            for _ in 0..<random(w * h / 4 + 1) { mask.pixels[random(w * h)] = 1 }
            let removal = LongRunRemoval(maximumHorizontal: 1 + random(20), maximumVertical: 1 + random(20), margin: random(4))
            var fast = mask, slow = mask, scratchA = InkMask(width: 0, height: 0), scratchB = InkMask(width: 0, height: 0)
            removal.apply(&fast, scratch: &scratchA)
            removal.referenceApply(&slow, scratch: &scratchB)
            XCTAssertEqual(fast, slow, "trial \(trial): \(w)x\(h) \(removal)")
        }
    }
}

/// The first, plain implementation (a column-by-column vertical scan and a separate dilation of the marked runs),
/// kept as the reference the fast one must match exactly.
extension LongRunRemoval {
    func referenceApply(_ mask: inout InkMask, scratch: inout InkMask) {
        let w = mask.width, h = mask.height
        scratch.reshape(width: w, height: h)
        let maxH = maximumHorizontal, maxV = maximumVertical
        mask.pixels.withUnsafeBufferPointer { m in
            scratch.pixels.withUnsafeMutableBufferPointer { s in
                for i in 0..<s.count { s[i] = 0 }
                for y in 0..<h {
                    var x = 0
                    let row = y * w
                    while x < w {
                        if m[row + x] == 0 { x &+= 1; continue }
                        let start = x
                        while x < w && m[row + x] != 0 { x &+= 1 }
                        if x - start > maxH { for i in start..<x { s[row + i] = 1 } }
                    }
                }
                for x in 0..<w {
                    var y = 0
                    while y < h {
                        if m[y * w + x] == 0 { y &+= 1; continue }
                        let start = y
                        while y < h && m[y * w + x] != 0 { y &+= 1 }
                        if y - start > maxV { for j in start..<y { s[j * w + x] = 1 } }
                    }
                }
            }
        }
        if margin > 0 {
            var grown = InkMask(width: w, height: h)
            Closing.dilateOrErode(scratch, into: &grown, radius: margin, dilate: true)
            swap(&grown, &scratch)
        }
        scratch.pixels.withUnsafeBufferPointer { s in
            mask.pixels.withUnsafeMutableBufferPointer { m in
                for i in 0..<m.count where s[i] != 0 { m[i] = 0 }
            }
        }
    }
}
