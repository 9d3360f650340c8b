import XCTest
@testable import VitalSnapImaging

final class MorphologyKernelTests: XCTestCase {
    private func closed(_ rows: [String], radius: Int) -> [String] {
        var mask = MaskArt.mask(rows)
        var scratch = InkMask(width: 0, height: 0)
        Closing(radius: radius).apply(&mask, scratch: &scratch)
        return MaskArt.picture(mask)
    }

    // MARK: - Binary closing

    func testClosingRadiusOneBridgesAOnePixelGap() {
        let before = [
            "............",
            "............",
            "..###.###...",
            "..###.###...",
            "..###.###...",
            "............",
            "............",
        ]
        var labeler = ConnectedComponents()
        XCTAssertEqual(labeler.label(MaskArt.mask(before)).count, 2)
        let after = closed(before, radius: 1)
        XCTAssertEqual(after, [
            "............",
            "............",
            "..#######...",
            "..#######...",
            "..#######...",
            "............",
            "............",
        ])
        XCTAssertEqual(labeler.label(MaskArt.mask(after)).count, 1)
    }

    func testClosingBridgesAOneRowGapBetweenStackedSegments() {
        // The end of one segment above the start of the next, one empty row between them.
        let before = [
            "..........",
            "..........",
            "..####....",
            "..####....",
            "..........",
            ".....##...",
            ".....##...",
            "..........",
            "..........",
        ]
        var labeler = ConnectedComponents()
        XCTAssertEqual(labeler.label(MaskArt.mask(before)).count, 2)
        XCTAssertEqual(labeler.label(MaskArt.mask(closed(before, radius: 1))).count, 1)
    }

    func testClosingRadiusOneLeavesAThreePixelGapOpenAndRadiusTwoBridgesIt() {
        // Kept more than the radius away from the border (see the report on shapes near the border).
        let before = [
            "................",
            "................",
            "................",
            "...###...###....",
            "...###...###....",
            "................",
            "................",
            "................",
        ]
        XCTAssertEqual(closed(before, radius: 1), before)
        var bridged = before
        bridged[3] = "...#########...."
        bridged[4] = "...#########...."
        XCTAssertEqual(closed(before, radius: 2), bridged)
    }

    func testClosingWithRadiusZeroChangesNothing() {
        let before = ["#.#.", ".#..", "...#"]
        XCTAssertEqual(closed(before, radius: 0), before)
    }

    func testClosingDoesNotEatIntoShapesTouchingTheBorder() {
        let before = [
            "###.......",
            "###.......",
            "###.......",
            "###.......",
        ]
        XCTAssertEqual(closed(before, radius: 1), before)
        XCTAssertEqual(closed(before, radius: 2), before)
    }

    func testClosingNeverRemovesInk() {
        var rng = SplitMix64(seed: 17)
        for _ in 0..<10 {
            var mask = InkMask(width: 23, height: 15)
            for i in 0..<mask.pixels.count { mask.pixels[i] = Int.random(in: 0..<10, using: &rng) < 2 ? 1 : 0 }
            let original = mask
            var scratch = InkMask(width: 0, height: 0)
            Closing(radius: 1).apply(&mask, scratch: &scratch)
            for i in 0..<mask.pixels.count where original.pixels[i] == 1 { XCTAssertEqual(mask.pixels[i], 1) }
        }
    }

    // MARK: - Gray max and min filters

    private func referenceFilter(_ image: GrayImage, radius: Int, takeMax: Bool) -> GrayImage {
        var out = GrayImage(width: image.width, height: image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                var values: [UInt8] = []
                for yy in max(0, y - radius)...min(image.height - 1, y + radius) {
                    for xx in max(0, x - radius)...min(image.width - 1, x + radius) { values.append(image[xx, yy]) }
                }
                out[x, y] = takeMax ? values.max()! : values.min()!
            }
        }
        return out
    }

    /// One workspace reused across sizes, radii and both filters, as a reader keeps it: stale buffers must
    /// never leak into a result (the padding especially, which differs between max and min).
    func testAReusedWorkspaceGivesTheSameResults() {
        var rng = SplitMix64(seed: 5)
        var workspace = GrayMorphology.Workspace()
        for _ in 0..<60 {
            let w = Int.random(in: 1...29, using: &rng), h = Int.random(in: 1...19, using: &rng)
            let image = Fixtures.noise(width: w, height: h, seed: rng.next())
            let radius = Int.random(in: 0...7, using: &rng), takeMax = Bool.random(using: &rng)
            var out = GrayImage(width: 0, height: 0)
            GrayMorphology.filter(image, radius: radius, takeMax: takeMax, into: &out, workspace: &workspace)
            XCTAssertEqual(out, referenceFilter(image, radius: radius, takeMax: takeMax), "\(w)x\(h) r\(radius) max=\(takeMax)")
        }
    }

    func testGrayMaxAndMinFiltersMatchAScalarReference() {
        var rng = SplitMix64(seed: 23)
        for _ in 0..<40 {
            // Windows wider than the image too: the block method must clip like the plain one.
            let w = Int.random(in: 1...31, using: &rng), h = Int.random(in: 1...23, using: &rng)
            let image = Fixtures.noise(width: w, height: h, seed: rng.next())
            for radius in 0...9 {
                for takeMax in [true, false] {
                    var out = GrayImage(width: 0, height: 0)
                    GrayMorphology.filter(image, radius: radius, takeMax: takeMax, into: &out)
                    XCTAssertEqual(out, referenceFilter(image, radius: radius, takeMax: takeMax), "\(w)x\(h) r\(radius) max=\(takeMax)")
                }
            }
        }
    }

    func testGrayClosingErasesStrokesNarrowerThanTheWindowAndKeepsWideDarkAreas() {
        var image = GrayImage(width: 40, height: 20, fill: 200)
        for y in 2..<18 { for x in 6..<9 { image[x, y] = 40 } }  // a stroke 3 wide
        for y in 2..<18 { for x in 20..<32 { image[x, y] = 60 } }  // a dark area 12 wide
        var out = GrayImage(width: 0, height: 0), scratch = GrayImage(width: 0, height: 0)
        GrayMorphology.closing(image, radius: 2, into: &out, scratch: &scratch)
        // The stroke is gone: the background shows through.
        for y in 0..<20 { for x in 0..<12 { XCTAssertEqual(out[x, y], 200, "(\(x), \(y))") } }
        // The wide area stays, with its own level inside.
        for y in 2..<18 { for x in 20..<32 { XCTAssertEqual(out[x, y], 60, "(\(x), \(y))") } }
        XCTAssertEqual(out[35, 10], 200)
    }
}


/// Ink masks written as pictures: `#` is ink, anything else background. Rows must be equally long.
enum MaskArt {
    static func mask(_ rows: [String]) -> InkMask {
        let h = rows.count, w = rows.first?.count ?? 0
        var mask = InkMask(width: w, height: h)
        for (y, row) in rows.enumerated() {
            precondition(row.count == w, "ragged mask picture")
            for (x, ch) in row.enumerated() where ch == "#" { mask[x, y] = true }
        }
        return mask
    }

    static func picture(_ mask: InkMask) -> [String] {
        (0..<mask.height).map { y in String((0..<mask.width).map { mask[$0, y] ? "#" : "." }) }
    }
}
