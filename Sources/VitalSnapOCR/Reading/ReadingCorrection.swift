import Foundation

/// A person's correction of a steady reading ("Edit"), checked before it becomes a record: as many numbers as
/// the reading has values, separated by `/` as the reading is shown (`120/80/72`), each within the plausible
/// range of its field in the reading's unit, as the peripheral's definition gives it. The terminal's prompt and
/// the capture view check a correction alike.
public enum ReadingCorrection {
    /// Why a correction is not taken, in words for the person who typed it.
    public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// `text` as values in place of `values` (their fields and units), or why not.
    public static func corrected(
        _ text: String, replacing values: [FieldValue], peripheral: PeripheralDefinition
    ) -> Result<[FieldValue], Refusal> {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let expected = "enter \(values.count) number\(values.count == 1 ? "" : "s")\(values.count > 1 ? " separated by /" : "")"
        guard parts.count == values.count else { return .failure(Refusal(description: expected)) }
        var corrected: [FieldValue] = []
        for (old, part) in zip(values, parts) {
            guard let number = NumberText(part), number.value.isFinite else {
                return .failure(Refusal(description: "\(part.isEmpty ? "nothing" : part) is not a number: \(expected)"))
            }
            let field = peripheral.measurementFields.first { $0.name == old.field }
            if let variant = field?.unit(named: old.unit), let range = variant.plausibleRange,
               !range.contains(number.value) {
                return .failure(Refusal(description:
                    "\(number.text) is outside the plausible range of \(Self.words(old.field)), \(ReadingAssembler.format(range)) \(old.unit)"))
            }
            corrected.append(FieldValue(
                field: old.field, text: number.text, value: number.value, unit: old.unit, decimals: number.decimals,
                confidence: 1))
        }
        return .success(corrected)
    }

    /// A field's name in words: `bloodGlucose` is `blood glucose`.
    static func words(_ field: FieldName) -> String {
        field.rawValue.reduce(into: "") { text, c in
            if c.isUppercase { text += " " + c.lowercased() } else { text.append(c) }
        }
    }

    /// What a correction must look like: `one number` or `3 numbers separated by /`.
    public static func hint(for values: [FieldValue]) -> String {
        values.count == 1 ? "one number" : "\(values.count) numbers separated by /"
    }
}
