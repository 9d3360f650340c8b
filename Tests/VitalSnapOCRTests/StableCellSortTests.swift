import XCTest
@testable import VitalSnapOCR

final class StableCellSortTests: XCTestCase {
    /// The same order as the standard library's stable `sort(by:)`, ties (many here) included, at sizes on both
    /// sides of its insertion-sort limit, with one sorter reused throughout.
    func testSameOrderAsTheStandardLibrarysStableSort() {
        var sorter = StableCellSort()
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 3, 20, 21, 64, 257, 1000] {
            for _ in 0..<5 {
                let cells = (0..<count).map { _ in Int32.random(in: 0..<5000, using: &generator) }
                let key = { (cell: Int32) in Double(cell % 37) * 0.5 }
                var ours = cells
                sorter.sort(&ours, by: key)
                XCTAssertEqual(ours, cells.sorted { key($0) < key($1) }, "\(count) cells")
            }
        }
    }
}
