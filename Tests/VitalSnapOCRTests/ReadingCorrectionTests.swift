import Testing
@testable import VitalSnapOCR

/// A person's correction of a steady reading is taken only as a reading of the same peripheral would be: as many
/// numbers as values, each within its field's plausible range in the reading's unit.
struct ReadingCorrectionTests {
    static func value(_ field: FieldName, _ text: String, _ unit: String) -> FieldValue {
        FieldValue(field: field, text: text, value: Double(text)!, unit: unit, decimals: 0, confidence: 0.9)
    }

    @Test func aGlucoseValueWithinItsRangeIsTakenAndOneOutsideIsNot() throws {
        let meter = try #require(try PeripheralCatalog.builtIn()[101])
        let read = [Self.value(.bloodGlucose, "43", "mg/dL")]
        let taken = try ReadingCorrection.corrected("48", replacing: read, peripheral: meter).get()
        #expect(taken.map(\.text) == ["48"])
        #expect(taken.first?.unit == "mg/dL")
        #expect(taken.first?.confidence == 1)
        guard case .failure(let refusal) = ReadingCorrection.corrected("5000", replacing: read, peripheral: meter) else {
            Issue.record("5000 mg/dL was taken")
            return
        }
        #expect(refusal.description.contains("outside the plausible range of blood glucose"), "\(refusal)")
        #expect(throws: ReadingCorrection.Refusal.self) { try ReadingCorrection.corrected("4x", replacing: read, peripheral: meter).get() }
        #expect(throws: ReadingCorrection.Refusal.self) { try ReadingCorrection.corrected("", replacing: read, peripheral: meter).get() }
        #expect(throws: ReadingCorrection.Refusal.self) { try ReadingCorrection.corrected("43/80", replacing: read, peripheral: meter).get() }
    }

    @Test func aBloodPressureNeedsEveryValue() throws {
        let monitor = try #require(try PeripheralCatalog.builtIn()[2])
        let read = [Self.value(.systolic, "120", "mmHg"), Self.value(.diastolic, "80", "mmHg"), Self.value(.pulse, "72", "bpm")]
        #expect(try ReadingCorrection.corrected("121 / 81 / 70", replacing: read, peripheral: monitor).get().map(\.text) == ["121", "81", "70"])
        #expect(throws: ReadingCorrection.Refusal.self) { try ReadingCorrection.corrected("121/81", replacing: read, peripheral: monitor).get() }
        #expect(ReadingCorrection.hint(for: read) == "3 numbers separated by /")
    }
}
