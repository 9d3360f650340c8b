import Foundation
import VitalSnapImaging
import XCTest
@testable import VitalSnapOCR

final class EvaluationTests: XCTestCase {
    // MARK: - labels.tsv

    func testParsesColumnsInAnyOrderWithOptionalOnes() throws {
        let text = """
            notes\tfile\treading\tmatch\tperipheral\tunit
            a note\ta.jpg\t123\texact\t9\tmg/dL
            \tb.jpg\t33\tinteger\t\t
            \tc.png\t?\t\t101\tmg/dL

            """
        let labels = try LabelFile.parse(text).labels
        XCTAssertEqual(labels.count, 3)
        XCTAssertEqual(labels[0], LabelFile.Label(file: "a.jpg", reading: "123", match: .exact, peripheral: 9, unit: "mg/dL", notes: "a note"))
        XCTAssertEqual(labels[1].match, .integer)
        XCTAssertNil(labels[1].peripheral)
        XCTAssertNil(labels[1].unit)
        XCTAssertEqual(labels[2].match, .exact, "an empty match cell means exact")
        XCTAssertEqual(labels[2].reading, "?")
        XCTAssertEqual(labels[2].peripheral, 101)
    }

    func testMatchColumnIsOptionalAndCRLFAndBOMAreAccepted() throws {
        let labels = try LabelFile.parse("\u{FEFF}file\treading\r\nx.jpg\t120/80/72\r\n").labels
        XCTAssertEqual(labels, [LabelFile.Label(file: "x.jpg", reading: "120/80/72")])
    }

    func testMalformedLabelFilesNameTheLine() {
        XCTAssertThrowsError(try LabelFile.parse("", path: "l.tsv")) {
            XCTAssertEqual($0 as? LabelFileError, .malformed("l.tsv", line: 1, "empty file"))
        }
        XCTAssertThrowsError(try LabelFile.parse("name\tvalue\na\t1\n", path: "l.tsv")) {
            XCTAssertEqual($0 as? LabelFileError, .malformed("l.tsv", line: 1, "header needs `file` and `reading` columns"))
        }
        XCTAssertThrowsError(try LabelFile.parse("file\treading\tmatch\na.jpg\t1\tfuzzy\n", path: "l.tsv")) {
            XCTAssertEqual(($0 as? LabelFileError)?.description.hasPrefix("l.tsv:2: unknown match rule `fuzzy`"), true)
        }
        XCTAssertThrowsError(try LabelFile.parse("file\treading\na.jpg\n", path: "l.tsv")) {
            XCTAssertEqual($0 as? LabelFileError, .malformed("l.tsv", line: 2, "missing file or reading"))
        }
        XCTAssertThrowsError(try LabelFile.parse("file\treading\tperipheral\na.jpg\t1\tnine\n", path: "l.tsv")) {
            XCTAssertEqual($0 as? LabelFileError, .malformed("l.tsv", line: 2, "peripheral `nine` is not a number"))
        }
        XCTAssertThrowsError(try LabelFile.load("/nonexistent/labels.tsv")) {
            XCTAssertEqual($0 as? LabelFileError, .unreadable("/nonexistent/labels.tsv"))
        }
    }

    // MARK: - Match rules

    func testExactDropsLeadingZerosOfEachValue() {
        XCTAssertTrue(MatchRule.exact.matches(reading: "98", label: "098"))
        XCTAssertTrue(MatchRule.exact.matches(reading: "098", label: "98"))
        XCTAssertTrue(MatchRule.exact.matches(reading: "5.60", label: "05.60"))
        XCTAssertTrue(MatchRule.exact.matches(reading: "0.5", label: "0.5"))
        XCTAssertTrue(MatchRule.exact.matches(reading: "0", label: "000"))
        XCTAssertTrue(MatchRule.exact.matches(reading: "120/80/072", label: "120/80/72"))
        XCTAssertFalse(MatchRule.exact.matches(reading: "5.6", label: "5.60"), "decimals are part of the value shown")
        XCTAssertFalse(MatchRule.exact.matches(reading: "120/80", label: "120/80/72"))
        XCTAssertFalse(MatchRule.exact.matches(reading: "980", label: "98"))
        XCTAssertFalse(MatchRule.exact.matches(reading: "", label: "98"))
    }

    func testIntegerRoundsTheReadingHalfUp() {
        XCTAssertTrue(MatchRule.integer.matches(reading: "33.01", label: "33"))
        XCTAssertTrue(MatchRule.integer.matches(reading: "32.5", label: "33"))
        XCTAssertTrue(MatchRule.integer.matches(reading: "33.49", label: "33"))
        XCTAssertFalse(MatchRule.integer.matches(reading: "33.5", label: "33"))
        XCTAssertFalse(MatchRule.integer.matches(reading: "32.49", label: "33"))
        XCTAssertTrue(MatchRule.integer.matches(reading: "033.00", label: "33"))
        XCTAssertTrue(MatchRule.integer.matches(reading: "33", label: "033"))
        XCTAssertFalse(MatchRule.integer.matches(reading: "LO", label: "33"))
        XCTAssertFalse(MatchRule.integer.matches(reading: "33.2", label: "33.2"), "the label must be a whole number")
    }

    func testLitresTakesAReadingWithinOneOfTheLabel() {
        XCTAssertTrue(MatchRule.litres.matches(reading: "62.67", label: "62"), "a label that truncates")
        XCTAssertTrue(MatchRule.litres.matches(reading: "62.67", label: "63"), "a label that rounds")
        XCTAssertTrue(MatchRule.litres.matches(reading: "47.00", label: "48"), "a label one too high")
        XCTAssertTrue(MatchRule.litres.matches(reading: "49", label: "48"))
        XCTAssertFalse(MatchRule.litres.matches(reading: "49.01", label: "48"))
        XCTAssertFalse(MatchRule.litres.matches(reading: "46.99", label: "48"))
        XCTAssertFalse(MatchRule.litres.matches(reading: "172.3", label: "17"), "a digit lost is not within a litre")
        XCTAssertFalse(MatchRule.litres.matches(reading: "LO", label: "48"))
        XCTAssertFalse(MatchRule.litres.matches(reading: "", label: "48"))
        XCTAssertFalse(MatchRule.litres.matches(reading: "48/80", label: "48"))
        XCTAssertTrue(MatchRule.litres.matches(reading: "48.5/80", label: "48/80.9"), "each value by itself")
        XCTAssertFalse(MatchRule.litres.matches(reading: "1e300", label: "1e300"), "no display shows such numbers")
    }

    func testALabelFileCanBeComparedByAnotherRule() throws {
        let labels = try LabelFile.parse("file\treading\tmatch\na.jpg\t62\tinteger\nb.jpg\tLO\texact\n")
        let litres = labels.comparing(by: .litres)
        XCTAssertEqual(litres.labels.map(\.match), [.litres, .litres])
        XCTAssertEqual(litres.labels.map(\.reading), ["62", "LO"], "only the rule changes")
        XCTAssertEqual(labels.labels.map(\.match), [.integer, .exact])
        XCTAssertEqual(try LabelFile.parse("file\treading\tmatch\na.jpg\t62\tlitres\n").labels[0].match, .litres)
    }

    func testDigitsComparesDigitStringsWithoutLeadingZeros() {
        XCTAssertTrue(MatchRule.digits.matches(reading: "12.34", label: "1234"))
        XCTAssertTrue(MatchRule.digits.matches(reading: "00123.4", label: "123.4"))
        XCTAssertFalse(MatchRule.digits.matches(reading: "123.4", label: "12.34.5"))
        XCTAssertFalse(MatchRule.digits.matches(reading: "", label: ""), "nothing read never matches")
    }

    func testQuestionMarkAndDisplayWordsExpectNoValue() {
        for label in ["?", "LO", "HI", "Err"] { XCTAssertTrue(MatchRule.expectsNoValue(label), label) }
        for label in ["123", "5.6", "120/80/72", "0"] { XCTAssertFalse(MatchRule.expectsNoValue(label), label) }
    }

    // MARK: - Verdicts

    static func valueResult(_ text: String) -> PhotoResult {
        let value = FieldValue(field: .bloodGlucose, text: text, value: Double(text) ?? 0, unit: "mg/dL", decimals: 0, confidence: 0.9)
        return PhotoResult(
            file: "x.jpg", reading: Reading(outcome: .values([value]), confidence: 0.9, recognizedText: text, lines: []))
    }

    static func wordResult(_ word: String) -> PhotoResult {
        PhotoResult(file: "x.jpg", reading: Reading(outcome: .word(word), confidence: 0.9, recognizedText: word, lines: []))
    }

    static let nothing = PhotoResult(
        file: "x.jpg", reading: Reading(outcome: .none(Refusal(.noDigits, "no digits found")), confidence: 0, recognizedText: "", lines: []))

    static let unreadable = PhotoResult(file: "x.jpg", failure: "empty file (0 bytes): x.jpg")

    func verdict(_ result: PhotoResult, _ label: String, _ match: MatchRule = .exact) -> Evaluation.Verdict {
        Evaluation.judge(result, label: LabelFile.Label(file: "x.jpg", reading: label, match: match)).verdict
    }

    func testVerdictsForValues() {
        XCTAssertEqual(verdict(Self.valueResult("123"), "123"), .correct)
        XCTAssertEqual(verdict(Self.valueResult("0123"), "123"), .correct)
        XCTAssertEqual(verdict(Self.valueResult("128"), "123"), .wrong)
        XCTAssertEqual(verdict(Self.valueResult("33.01"), "33", .integer), .correct)
        XCTAssertEqual(verdict(Self.nothing, "123"), .noReading)
        XCTAssertEqual(verdict(Self.wordResult("LO"), "123"), .wrong, "a word where a value is shown is false")
        XCTAssertEqual(verdict(Self.unreadable, "123"), .error)
        let item = Evaluation.judge(Self.valueResult("128"), label: LabelFile.Label(file: "x.jpg", reading: "123"))
        XCTAssertEqual(item.read, "128")
        XCTAssertEqual(item.label, "123")
    }

    func testVerdictsForHiddenDigitsAndWords() {
        XCTAssertEqual(verdict(Self.nothing, "?"), .correct, "digits hidden: no reading is right")
        XCTAssertEqual(verdict(Self.valueResult("123"), "?"), .wrong, "digits hidden: any value is wrong")
        XCTAssertEqual(verdict(Self.wordResult("LO"), "LO"), .correct)
        XCTAssertEqual(verdict(Self.wordResult("Err"), "Err"), .correct)
        XCTAssertEqual(verdict(Self.wordResult("HI"), "LO"), .wrong)
        XCTAssertEqual(verdict(Self.valueResult("10"), "LO"), .wrong, "a value where the display shows a word is wrong")
        XCTAssertEqual(verdict(Self.nothing, "HI"), .noReading)
        XCTAssertEqual(verdict(Self.unreadable, "?"), .error)
        XCTAssertEqual(Evaluation.judge(Self.wordResult("HI"), label: LabelFile.Label(file: "x.jpg", reading: "HI")).read, "HI")
    }

    func testCountsAddUp() {
        var counts = Evaluation.Counts()
        for v in [Evaluation.Verdict.correct, .correct, .wrong, .noReading, .error] { counts.add(v) }
        XCTAssertEqual(counts.total, 5)
        XCTAssertEqual(counts.correct, 2)
        XCTAssertEqual(counts.accuracy, 0.4, accuracy: 1e-12)
        XCTAssertEqual(counts.wrongRate, 0.2, accuracy: 1e-12)
        XCTAssertEqual((counts + counts).total, 10)
        XCTAssertEqual(Evaluation.Counts().accuracy, 0)
    }

    // MARK: - Peripheral and unit per row

    func testSettingsUseEachRowsPeripheralAndUnitUnlessOverridden() throws {
        let catalog = try PeripheralCatalog.builtIn()
        let labels = try LabelFile.parse("""
            file\treading\tperipheral\tunit
            a.jpg\t123\t101\tmg/dL
            b.jpg\t5.6\t102\tmmol/L
            c.jpg\t120/80/72\t103\tmmHg
            """)
        let own = try Evaluation.settings(for: labels, labelsPath: "l.tsv", catalog: catalog)
        XCTAssertEqual(own.map(\.peripheral.id), [101, 102, 103])
        XCTAssertEqual(own.map(\.unit), ["mg/dL", "mmol/L", nil], "mmHg is not the pulse's unit: it selects nothing")

        let overridden = try Evaluation.settings(for: labels, labelsPath: "l.tsv", catalog: catalog, peripheral: 9)
        XCTAssertEqual(overridden.map(\.peripheral.id), [9, 9, 9])
        XCTAssertEqual(overridden.map(\.unit), ["mg/dL", "mmol/L", nil], "a row's unit the override does not show is dropped")

        let both = try Evaluation.settings(for: labels, labelsPath: "l.tsv", catalog: catalog, peripheral: 9, unit: "mmol")
        XCTAssertEqual(both.map(\.unit), ["mmol/L", "mmol/L", "mmol/L"])
    }

    func testSettingsErrors() throws {
        let catalog = try PeripheralCatalog.builtIn()
        let noColumn = try LabelFile.parse("file\treading\na.jpg\t1\n")
        XCTAssertThrowsError(try Evaluation.settings(for: noColumn, labelsPath: "l.tsv", catalog: catalog)) {
            XCTAssertEqual($0 as? EvaluationError, .noPeripheral("l.tsv", file: "a.jpg"))
        }
        XCTAssertEqual(try Evaluation.settings(for: noColumn, labelsPath: "l.tsv", catalog: catalog, peripheral: 100).map(\.peripheral.id), [100])
        let unknown = try LabelFile.parse("file\treading\tperipheral\na.jpg\t1\t77\n")
        XCTAssertThrowsError(try Evaluation.settings(for: unknown, labelsPath: "l.tsv", catalog: catalog)) {
            let text = String(describing: $0)
            XCTAssertTrue(text.contains("77") && text.contains("known ids: 1, 2, 5, 6, 9, 100"), text)
        }
        let wrongUnit = try LabelFile.parse("file\treading\tperipheral\tunit\na.jpg\t1\t2\tmmol\n")
        XCTAssertThrowsError(try Evaluation.settings(for: wrongUnit, labelsPath: "l.tsv", catalog: catalog)) {
            XCTAssertTrue(String(describing: $0).contains("does not show mmol"), String(describing: $0))
        }
    }

    func testReaderSettingResolvesUnitsAsTyped() throws {
        let catalog = try PeripheralCatalog.builtIn()
        XCTAssertEqual(try ReaderSetting.resolve(peripheral: 9, unit: "mmol", catalog: catalog).unit, "mmol/L")
        XCTAssertEqual(try ReaderSetting.resolve(peripheral: 9, unit: "MG/DL", catalog: catalog).unit, "mg/dL")
        XCTAssertEqual(try ReaderSetting.resolve(peripheral: 1, unit: "F", catalog: catalog).unit, "°F")
        XCTAssertNil(try ReaderSetting.resolve(peripheral: 9, unit: nil, catalog: catalog).unit)
        XCTAssertNil(try ReaderSetting.resolve(peripheral: 2, unit: "mmhg", catalog: catalog).unit)
        XCTAssertNil(try ReaderSetting.resolve(peripheral: 2, unit: "kg", catalog: catalog, lenient: true).unit)
        XCTAssertThrowsError(try ReaderSetting.resolve(peripheral: 2, unit: "kg", catalog: catalog))
        XCTAssertThrowsError(try ReaderSetting.resolve(peripheral: 4242, unit: nil, catalog: catalog)) {
            guard case .unknownPeripheral(4242, let known)? = $0 as? ReaderSettingError else { return XCTFail("\($0)") }
            XCTAssertTrue(Set([1, 2, 5, 6, 9, 100]).isSubset(of: known))
        }
    }

    // MARK: - Folders

    func testEvaluatesSeveralFoldersAndSplitsTheResults() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vitalsnap-eval-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let a = root.appendingPathComponent("a"), b = root.appendingPathComponent("b/deeper")
        for dir in [a, b, root.appendingPathComponent("no-labels")] {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        }
        let blank = try ImageEncoder.png(GrayImage(width: 24, height: 16, fill: 200))
        try ImageEncoder.write(blank, to: a.appendingPathComponent("blank.png").path)
        try ImageEncoder.write(blank, to: b.appendingPathComponent("blank.png").path)
        try "file\treading\tperipheral\nblank.png\t?\t9\nmissing.png\t12\t9\n"
            .write(to: a.appendingPathComponent("labels.tsv"), atomically: true, encoding: .utf8)
        try "file\treading\tperipheral\nblank.png\t45\t2\n"
            .write(to: b.appendingPathComponent("labels.tsv"), atomically: true, encoding: .utf8)

        let folders = Evaluation.labelledFolders(under: root.path)
        XCTAssertEqual(folders, [a.path, b.path])
        XCTAssertEqual(Evaluation.labelledFolders(under: a.path), [a.path], "a folder with labels.tsv is itself the set")

        let catalog = try PeripheralCatalog.builtIn()
        let tasks = try folders.map { folder in
            let labels = try LabelFile.load(folder + "/labels.tsv")
            return Evaluation.Task(
                folder: folder, labels: labels,
                settings: try Evaluation.settings(for: labels, labelsPath: folder + "/labels.tsv", catalog: catalog))
        }
        var progress: [Int] = []
        let evaluations = Evaluation.run(tasks, jobs: 3, reader: .rules) { done, total in
            XCTAssertEqual(total, 3)
            progress.append(done)
        }
        XCTAssertEqual(progress, [1, 2, 3])
        XCTAssertEqual(evaluations.map(\.folder), [a.path, b.path])
        XCTAssertEqual(evaluations[0].items.map(\.verdict), [.correct, .error])
        XCTAssertEqual(evaluations[0].items.map(\.file), ["blank.png", "missing.png"])
        XCTAssertEqual(evaluations[0].peripherals, [9])
        XCTAssertEqual(evaluations[1].items.map(\.verdict), [.noReading])
        XCTAssertEqual(evaluations[1].peripherals, [2])
        let total = evaluations.map(\.counts).reduce(Evaluation.Counts(), +)
        XCTAssertEqual([total.total, total.correct, total.wrong, total.noReading, total.errors], [3, 1, 0, 1, 1])
    }
}
