import XCTest
@testable import VitalSnapImaging

final class ConnectedComponentsKernelTests: XCTestCase {
    /// 8-connected flood fill with an explicit stack: the reference for the run-based labeler.
    private func floodFillComponents(_ mask: InkMask) -> [Component] {
        let w = mask.width, h = mask.height
        var seen = [Bool](repeating: false, count: w * h)
        var result: [Component] = []
        for start in 0..<(w * h) where mask.pixels[start] != 0 && !seen[start] {
            var stack = [start]
            seen[start] = true
            var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min, area = 0
            while let p = stack.popLast() {
                let x = p % w, y = p / w
                area += 1
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
                for dy in -1...1 {
                    for dx in -1...1 {
                        let nx = x + dx, ny = y + dy
                        guard nx >= 0, nx < w, ny >= 0, ny < h else { continue }
                        let q = ny * w + nx
                        if mask.pixels[q] != 0 && !seen[q] { seen[q] = true; stack.append(q) }
                    }
                }
            }
            result.append(Component(box: PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1), area: area))
        }
        return result
    }

    private func sorted(_ components: [Component]) -> [Component] {
        components.sorted { ($0.box.y, $0.box.x, $0.box.width, $0.box.height, $0.area) < ($1.box.y, $1.box.x, $1.box.width, $1.box.height, $1.area) }
    }

    func testMatchesAFloodFillOnRandomMasks() {
        var rng = SplitMix64(seed: 42)
        var labeler = ConnectedComponents()  // reused across masks, as the reader does
        for trial in 0..<40 {
            let w = Int.random(in: 1...29, using: &rng), h = Int.random(in: 1...21, using: &rng)
            let density = [0.15, 0.3, 0.45, 0.6][trial % 4]
            var mask = InkMask(width: w, height: h)
            for i in 0..<mask.pixels.count { mask.pixels[i] = Double.random(in: 0..<1, using: &rng) < density ? 1 : 0 }
            let expected = sorted(floodFillComponents(mask))
            let got = sorted(labeler.label(mask))
            XCTAssertEqual(got.count, expected.count, "trial \(trial): \(w)x\(h) density \(density)")
            XCTAssertEqual(got, expected, "trial \(trial)")
            XCTAssertEqual(got.map(\.area).reduce(0, +), mask.pixels.reduce(0) { $0 + Int($1) })
        }
    }

    func testDiagonalTouchJoinsButOneEmptyPixelSeparates() {
        var labeler = ConnectedComponents()
        let diagonal = labeler.label(MaskArt.mask([
            "#....",
            ".#...",
            "..#..",
            ".#...",
        ]))
        XCTAssertEqual(diagonal, [Component(box: PixelRect(x: 0, y: 0, width: 3, height: 4), area: 4)])
        let antiDiagonal = labeler.label(MaskArt.mask([
            "...#",
            "..#.",
            ".#..",
        ]))
        XCTAssertEqual(antiDiagonal, [Component(box: PixelRect(x: 1, y: 0, width: 3, height: 3), area: 3)])
        let apart = sorted(labeler.label(MaskArt.mask([
            "#.#",
            "...",
            "#..",
        ])))
        XCTAssertEqual(apart.count, 3)
        XCTAssertEqual(apart.map(\.area), [1, 1, 1])
    }

    func testShapesJoinedOnlyBelowAreOneComponent() {
        // A U and a W: their arms are separate runs until a lower row joins them.
        var labeler = ConnectedComponents()
        let components = sorted(labeler.label(MaskArt.mask([
            "#...#..#.#.#",
            "#...#..#.#.#",
            "#...#..#.#.#",
            "#####...#.#.",
        ])))
        XCTAssertEqual(components, [
            Component(box: PixelRect(x: 0, y: 0, width: 5, height: 4), area: 11),
            Component(box: PixelRect(x: 7, y: 0, width: 5, height: 4), area: 11),
        ])
        XCTAssertEqual(components[0].fill, 11.0 / 20.0, accuracy: 1e-12)
    }

    func testMinimumAreaDropsSmallComponents() {
        var labeler = ConnectedComponents()
        let mask = MaskArt.mask([
            "##....#",
            "##.....",
            "....##.",
        ])
        XCTAssertEqual(sorted(labeler.label(mask)).map(\.area), [4, 1, 2])
        XCTAssertEqual(labeler.label(mask, minimumArea: 2).map(\.area).sorted(), [2, 4])
        XCTAssertEqual(labeler.label(mask, minimumArea: 5), [])
    }

    func testEmptyMasksHaveNoComponents() {
        var labeler = ConnectedComponents()
        XCTAssertEqual(labeler.label(InkMask(width: 0, height: 0)), [])
        XCTAssertEqual(labeler.label(InkMask(width: 12, height: 9)), [])
        let full = MaskArt.mask(["###", "###"])
        XCTAssertEqual(labeler.label(full), [Component(box: PixelRect(x: 0, y: 0, width: 3, height: 2), area: 6)])
    }
}
