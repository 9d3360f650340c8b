import Foundation
@testable import VitalSnapHealth
import XCTest

/// The fast scanner against libxml2: the same elements, the same repairs, the same errors, and a hand-over to
/// libxml2 that reads nothing twice.
final class HealthXMLReaderTests: XCTestCase {
    typealias F = HealthFixture

    struct Reading: Equatable {
        var elements: [HealthElement]
        var error: HealthImportError?
        var replacedCharacters: Int
    }

    /// Everything a reader gives for the file at `path`, and whether libxml2 read (some of) it.
    private func read(_ path: String, fast: Bool) throws -> (reading: Reading, libxml2: Bool) {
        let located = try HealthExportLocator.locate(path)
        let reader = try HealthXMLReader(opening: located.open, fastScanner: fast)
        var elements: [HealthElement] = []
        var failure: HealthImportError?
        do {
            while let element = try reader.next() { elements.append(element) }
        } catch {
            failure = error
        }
        return (Reading(elements: elements, error: failure, replacedCharacters: reader.replacedCharacters), reader.readByLibxml2)
    }

    private func file(_ data: Data, name: String = "export.xml") throws -> String {
        let url = try F.folder(removedAfter: self).appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    /// Reads `path` both ways; the readings must be equal. Returns the scanner's, and whether it handed over.
    private func bothWays(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> (Reading, handedOver: Bool) {
        let fast = try read(path, fast: true)
        let slow = try read(path, fast: false)
        XCTAssertTrue(slow.libxml2, file: file, line: line)
        XCTAssertEqual(fast.reading.elements.count, slow.reading.elements.count, file: file, line: line)
        for (index, (a, b)) in zip(fast.reading.elements, slow.reading.elements).enumerated() where a != b {
            XCTFail("element \(index): scanner \(a), libxml2 \(b)", file: file, line: line)
            break
        }
        XCTAssertEqual(fast.reading.error, slow.reading.error, file: file, line: line)
        XCTAssertEqual(fast.reading.replacedCharacters, slow.reading.replacedCharacters, file: file, line: line)
        return (fast.reading, fast.libxml2)
    }

    private func sample(_ element: HealthElement?) -> HealthSample? {
        if case .sample(let sample) = element { return sample }
        return nil
    }

    func testGeneratedExportsWithTheKnownMalformationsReadTheSameWithoutLibxml2() throws {
        let folder = try F.folder(removedAfter: self)
        let out = folder.appendingPathComponent("export.zip").path
        try F.python(
            "import runpy, sys; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')",
            [GeneratedExportTests.generator, out, "--days", "3", "--density", "0.3", "--seed", "5", "--absurd",
             "--malformed", "dtd,control-chars,attribute-spaces"])
        let (reading, handedOver) = try bothWays(out)
        XCTAssertFalse(handedOver, "the scanner left a generated export to libxml2")
        XCTAssertNil(reading.error)
        XCTAssertGreaterThan(reading.elements.count, 1000)
        XCTAssertGreaterThan(reading.replacedCharacters, 0)
    }

    /// An import builds each stretch of events on whichever preparing thread takes it, with a builder that saw
    /// none of the others: every stretch must hold whole elements.
    func testEachStretchOfEventsBuildsAloneToTheSameElements() throws {
        let out = try F.folder(removedAfter: self).appendingPathComponent("export.zip").path
        try F.python(
            "import runpy, sys; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')",
            [GeneratedExportTests.generator, out, "--days", "2", "--density", "0.3", "--seed", "7"])
        let whole = try read(out, fast: true).reading
        let located = try HealthExportLocator.locate(out)
        let reader = try HealthXMLReader(opening: located.open)
        reader.stretchSize = 4096
        reader.feedSize = 3000
        var elements: [HealthElement] = [], built: [HealthElement] = []
        var stretches = 0
        while let events = try reader.nextEvents() {
            HealthElementBuilder().build(events, into: &built)
            elements += built
            stretches += 1
        }
        XCTAssertGreaterThan(stretches, 20)
        XCTAssertGreaterThan(whole.elements.count, 1000)
        XCTAssertEqual(elements.count, whole.elements.count)
        if let index = zip(elements, whole.elements).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            XCTFail("element \(index) differs when its stretch is built alone")
        }
    }

    func testTheRealSampleReadsTheSameWithoutLibxml2() throws {
        let sample = "../shared/data/health/healthkit-to-sqlite-tests-export.xml"
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../\(sample)").standardized.path
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("\(sample) is absent (third-party data, not in the repository)") }
        let (reading, handedOver) = try bothWays(path)
        XCTAssertFalse(handedOver)
        XCTAssertFalse(reading.elements.isEmpty)
    }

    func testAttributeValuesAreDecodedAndNormalizedAsXMLSays() throws {
        // References, a tab, a line end as CR LF, single quotes, spaces around '=', a comment, non-ASCII text, a
        // vertical tab (read as a space and counted) and an attribute name written with spaces.
        let body = """
             <!-- written by hand -->
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="A &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; &#233;&#x1F600;&#10;e\tf\r\ng\u{0B}h" unit = 'count/min' startDate="2026-03-05 08:00:00 -0500" endDate="2026-03-05 08:00:00 -0500" value="61" Health Mate App Version="7.1.1"/>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Zoë’s Watch" unit="count/min" startDate="2026-03-05 08:01:00 -0500" endDate="2026-03-05 08:01:00 -0500" value="62">
              <MetadataEntry key="HKWasUserEntered" value="1"/>
             </Record>

            """
        let (reading, handedOver) = try bothWays(try file(F.export(body)))
        XCTAssertFalse(handedOver)
        XCTAssertEqual(reading.elements.count, 2)
        XCTAssertEqual(sample(reading.elements.first)?.sourceName, "A <b> & \"c\" 'd' é😀\ne f g h")
        XCTAssertEqual(sample(reading.elements.first)?.unit, "count/min")
        XCTAssertEqual(sample(reading.elements.last)?.sourceName, "Zoë’s Watch")
        XCTAssertEqual(sample(reading.elements.last)?.metadata("HKWasUserEntered"), "1")
        XCTAssertEqual(reading.replacedCharacters, 1)
    }

    func testAWellFormedConstructTheScannerLeavesToLibxml2IsReadOnceFromWhereItStopped() throws {
        let before = (0..<3).map { F.record("HKQuantityTypeIdentifierHeartRate", "\(60 + $0)", unit: "count/min", start: "2026-03-05 08:0\($0):00 -0500") }.joined()
        let after = (0..<4).map { F.record("HKQuantityTypeIdentifierHeartRate", "\(70 + $0)", unit: "count/min", start: "2026-03-05 09:0\($0):00 -0500") }.joined()
        for unusual in [" <?note a processing instruction?>\n", " <Note><![CDATA[ <not> markup ]]></Note>\n", " <x:Note xmlns:x=\"urn:a\"/>\n"] {
            let (reading, handedOver) = try bothWays(try file(F.export(before + unusual + after)))
            XCTAssertTrue(handedOver, unusual)
            XCTAssertNil(reading.error, unusual)
            XCTAssertEqual(reading.elements.compactMap { sample($0)?.value }, ["60", "61", "62", "70", "71", "72", "73"], unusual)
        }
    }

    func testXMLThatIsNotWellFormedIsLeftToLibxml2ForItsMessageAndLine() throws {
        let before = (0..<5).map { F.record("HKQuantityTypeIdentifierHeartRate", "\(60 + $0)", unit: "count/min", start: "2026-03-05 08:0\($0):00 -0500") }.joined()
        let broken = [
            " <Record type=\"HKQuantityTypeIdentifierHeartRate\" value=\"1\n <Oops></Record>\n",  // an unclosed value
            " <Record type=\"a\"></Workout>\n",  // a mismatched end tag
            " <Record type=\"a\" type=\"b\"/>\n",  // an attribute twice
            " <Record type=\"a &bogus; b\"/>\n",  // an unknown entity
            " <Record type=\"a\"value=\"b\"/>\n",  // no space between attributes
            " <Record type=\"a\u{FFFF}\"/>\n",  // a character XML forbids
        ]
        for fault in broken {
            let (reading, handedOver) = try bothWays(try file(F.export(before + fault + before)))
            XCTAssertTrue(handedOver, fault)
            guard case .malformedXML(let line, _)? = reading.error else { XCTFail("\(fault): \(String(describing: reading.error))"); continue }
            XCTAssertGreaterThanOrEqual(line, 12, fault)
            XCTAssertEqual(reading.elements.count, 5, fault)
        }
        // Cut off: the scanner hands over at the end, libxml2 says where.
        let whole = F.export(before)
        let (cut, handedOver) = try bothWays(try file(whole.prefix(whole.count - 30)))
        XCTAssertTrue(handedOver)
        XCTAssertNotNil(cut.error)
        XCTAssertEqual(cut.elements.count, 4)
    }

    func testInvalidUTF8IsLeftToLibxml2() throws {
        var data = F.export(F.record("HKQuantityTypeIdentifierHeartRate", "61", unit: "count/min", start: "2026-03-05 08:00:00 -0500"))
        let at = try XCTUnwrap(data.range(of: Data("iPhone".utf8)))
        data[at.lowerBound + 1] = 0xC3  // a lead byte followed by an ASCII byte
        let (reading, handedOver) = try bothWays(try file(data))
        XCTAssertTrue(handedOver)
        XCTAssertNotNil(reading.error)
    }
}
