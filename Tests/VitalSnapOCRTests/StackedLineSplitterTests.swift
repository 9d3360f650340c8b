import XCTest
@testable import VitalSnapOCR

final class StackedLineSplitterTests: XCTestCase {
    private func starts(_ counts: [Int32], bandsPerDigitHeight: Double) -> [Int] {
        var out: [Int] = [99]
        counts.withUnsafeBufferPointer {
            StackedLineSplitter().split(counts: $0, bandsPerDigitHeight: bandsPerDigitHeight, into: &out)
        }
        return out
    }

    func testTwoTouchingRowsAreCutAtTheEmptiestBandBetweenThem() {
        // SYS over DIA as the detector marked them (bp-b3-02): a thin neck of 2 cells between rows of 10-14.
        XCTAssertEqual(starts([10, 14, 14, 12, 8, 6, 2, 5, 10, 9, 9, 8], bandsPerDigitHeight: 6), [6])
    }

    func testThreeRowsGiveThreeParts() {
        XCTAssertEqual(starts([6, 8, 7, 1, 7, 9, 6, 0, 1, 5, 6, 5], bandsPerDigitHeight: 3), [3, 7])
    }

    func testOneLineNoWiderThanItsDigitsIsLeftWhole() {
        // A dip in the middle of one line's core (a thin line of digits like 1 1 1) is not a gap: the group is
        // no wider across than its digit height.
        XCTAssertEqual(starts([6, 2, 6], bandsPerDigitHeight: 4), [])
    }

    func testAGroupALittleWiderThanItsDigitsWithoutAValleyIsLeftWhole() {
        // 1.5 digit heights across: one line whose core the detector marked wide.
        XCTAssertEqual(starts([5, 6, 6, 7, 6, 5], bandsPerDigitHeight: 4), [])
    }

    func testAGroupTwoOrThreeDigitHeightsAcrossWithoutAValleyIsCutEvenly() {
        // Rows marked together with the space between them (a real BP monitor's 132 over 79): 2.0 digit
        // heights across give two parts, 2.7 give three.
        XCTAssertEqual(starts([12, 13, 14, 14, 13, 12, 12, 13, 14, 12, 12, 13, 12, 14, 13], bandsPerDigitHeight: 7.5), [8])
        XCTAssertEqual(starts([5, 6, 6, 7, 6, 6, 5, 5], bandsPerDigitHeight: 3), [3, 5])
    }

    func testAPartMustBeAtLeastAThirdOfADigitHeight() {
        // An empty band one band from the edge would leave a sliver: it is not cut there.
        XCTAssertEqual(starts([9, 0, 9, 9, 9, 9, 9, 9, 9], bandsPerDigitHeight: 6), [])
    }
}
