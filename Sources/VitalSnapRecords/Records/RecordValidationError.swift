/// Why a record cannot be kept: every case names what is wrong in terms the person who entered it understands.
public enum RecordValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A value outside what is physically possible, in the field's canonical unit.
    case outOfRange(field: RecordField, value: Double, range: ClosedRange<Double>)
    /// A record with no measurement at all (a biometrics or activity record where every field is empty): there is
    /// nothing to upload.
    case noMeasurement(RecordType)
    /// Systolic without diastolic or the reverse: half a blood pressure reading is not a reading.
    case incompleteBloodPressure(missing: RecordField)
    case systolicNotAboveDiastolic(systolic: Double, diastolic: Double)
    /// Deep, light and REM sleep are parts of total sleep; more than one second over it (rounding) is a mix-up
    /// of fields or units. Seconds.
    case sleepStagesExceedTotal(stages: Double, totalSleep: Double)
    /// Sleep and time awake in bed longer than the day's 86,400 s. Seconds.
    case sleepLongerThanADay(seconds: Double)
    /// The activity ID is what makes a retried upload idempotent; a record without one cannot be sent safely.
    case emptyActivityID
    /// An extras key the record writes itself from a typed property (`peripheral_id`, `raw_data`).
    case reservedExtrasKey(String)

    public var description: String {
        switch self {
        case .outOfRange(let field, let value, let range):
            // Counts have no unit: "steps 250000 is outside the possible range 0-200000".
            let unit = field.canonicalUnit.isEmpty ? "" : " \(field.canonicalUnit)"
            let valueText = value.isNaN ? "is not a number" : "\(DecimalRounding.shortText(value))\(unit) is"
            return "\(field.displayName) \(valueText) outside the possible range "
                + "\(DecimalRounding.shortText(range.lowerBound))-\(DecimalRounding.shortText(range.upperBound))\(unit)"
        case .noMeasurement(let type):
            return "the \(type.rawValue) record has no measurement"
        case .incompleteBloodPressure(let missing):
            return "blood pressure needs both values; \(missing.displayName) is missing"
        case .systolicNotAboveDiastolic(let systolic, let diastolic):
            return "systolic \(DecimalRounding.shortText(systolic)) mmHg is not above diastolic "
                + "\(DecimalRounding.shortText(diastolic)) mmHg"
        case .sleepStagesExceedTotal(let stages, let totalSleep):
            return "deep, light and REM sleep add up to \(DecimalRounding.shortText(stages)) s, "
                + "more than the total sleep of \(DecimalRounding.shortText(totalSleep)) s"
        case .sleepLongerThanADay(let seconds):
            return "sleep and time awake add up to \(DecimalRounding.shortText(seconds)) s, "
                + "more than the 86400 s of a day"
        case .emptyActivityID:
            return "the record has no activity ID"
        case .reservedExtrasKey(let key):
            return "extras key \(key) is written by the record itself; set the typed property instead"
        }
    }
}
