import XCTest
@testable import VitalSnapOCR

final class NumberTextTests: XCTestCase {
    func testWellFormedNumbers() {
        let cases: [(String, Double, Int)] = [
            ("123", 123, 0), ("5.6", 5.6, 1), ("-12.5", -12.5, 1), ("0456", 456, 0), ("33.01", 33.01, 2),
            ("0", 0, 0), ("0.5", 0.5, 1), ("-7", -7, 0), ("100.00", 100, 2),
        ]
        for (text, value, decimals) in cases {
            guard let number = NumberText(text) else {
                XCTFail("\(text) should parse")
                continue
            }
            XCTAssertEqual(number.text, text)
            XCTAssertEqual(number.value, value, accuracy: 1e-12, text)
            XCTAssertEqual(number.decimals, decimals, text)
        }
    }

    func testMalformedNumbers() {
        for text in [
            "", "-", ".", ".5", "-.5", "5.", "1.2.3", "1..2", "1-2", "--1", "12-", "1 2", " 12", "1?3", "LO", "Err",
            "1,5", "+5", "٣", "1e3", "12a",
        ] {
            XCTAssertNil(NumberText(text), "'\(text)' should not parse")
        }
    }

    func testDisplayWords() {
        for (text, word) in [
            ("LO", "LO"), ("L0", "LO"), ("Lo", "LO"), ("HI", "HI"), ("H1", "HI"),
            ("Er", "Err"), ("Err", "Err"), ("E-", "Err"), ("E--", "Err"),
        ] {
            XCTAssertEqual(DisplayWord.word(in: text), word, text)
        }
        for text in ["", "L", "H", "10", "LOL", "lo", "hi", "err", "E-1", "Erro", "0L", "1H", "123"] {
            XCTAssertNil(DisplayWord.word(in: text), text)
        }
    }
}
