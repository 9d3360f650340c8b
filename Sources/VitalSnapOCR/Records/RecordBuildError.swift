import VitalSnapRecords

/// Why a reading did not become a record, said so that an app can show it as it is.
public enum RecordBuildError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The peripheral reads plain numbers (`numericDisplay`): they are not a health measurement.
    case notAHealthRecord(peripheralID: Int)
    /// The display shows a word (`LO`, `HI`, `Err`) instead of a value.
    case displayShowsWord(String, device: PeripheralType)
    /// Nothing trustworthy was read; the reader's reason.
    case noValue(reason: String)
    /// The reading lacks a field the record needs (a blood pressure without diastolic).
    case missingField(FieldName, peripheralID: Int)
    /// A field in a unit the record cannot be converted from; a peripheral definition error.
    case unsupportedUnit(FieldName, unit: String, peripheralID: Int)
    /// A value outside what is physically possible.
    case invalid(RecordValidationError)

    public var description: String {
        switch self {
        case .notAHealthRecord(let id):
            return "peripheral \(id) reads numbers, not health records"
        case .displayShowsWord(let word, let device):
            let subject = "the \(device.deviceNoun) shows \(word)"
            switch word {
            case "LO": return "\(subject): below its measuring range; no value recorded"
            case "HI": return "\(subject): above its measuring range; no value recorded"
            case "Err": return "\(subject): the device reports an error; measure again; no value recorded"
            default: return "\(subject) instead of a value; no value recorded"
            }
        case .noValue(let reason):
            return "no value read (\(reason)); no value recorded"
        case .missingField(let field, let id):
            return "the reading of peripheral \(id) has no \(field.rawValue); no value recorded"
        case .unsupportedUnit(let field, let unit, let id):
            return "peripheral \(id) shows \(field.rawValue) in \"\(unit)\", a unit records cannot be converted from"
        case .invalid(let error):
            return "\(error); no value recorded"
        }
    }
}

extension PeripheralType {
    /// How a message names the device: "the meter shows LO".
    var deviceNoun: String {
        switch self {
        case .glucoseMeter: "meter"
        case .bloodPressureMonitor: "blood pressure monitor"
        case .thermometer: "thermometer"
        case .weightScale: "scale"
        case .pulseOximeter: "pulse oximeter"
        case .numericDisplay: "display"
        }
    }
}
