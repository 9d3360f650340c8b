import VitalSnapRecords

/// Why a value a device sent became no record. The controller logs it and goes on with the next reading; none
/// of these stops a read.
public enum BLESkippedReading: Error, Equatable, Sendable, CustomStringConvertible {
    /// The value does not decode (cut short, a reserved field value).
    case undecodable(GATTDecodeError)
    /// A characteristic the mapper has no record for (a status or control characteristic, another vendor's).
    case unsupportedCharacteristic(String)
    /// The measurement carries no number for this field: left out by the device's flags, or sent as one of the
    /// special values (not a number, not at this resolution, an infinity, or a vendor's "missing").
    case noValue(RecordField)
    /// A glucose meter's test of its control solution (sample type 10 or location 4), not a person's blood.
    case controlSolution
    /// A heart-rate sensor that reports it is not touching the skin: its number is not a pulse.
    case noSkinContact
    /// A stored reading whose time the device does not know (its clock unset: year, month or day 0) or gave
    /// as an impossible date; kept out rather than filed under the time it was fetched.
    case measurementTimeUnknown(String)
    /// Core refused the record: a value no person can have (often a unit or decimal-point slip in the device).
    case invalid(RecordValidationError)

    public var description: String {
        switch self {
        case .undecodable(let error): "undecodable: \(error)"
        case .unsupportedCharacteristic(let uuid): "characteristic \(uuid) holds no measurement VitalSnap records"
        case .noValue(let field): "the device sent no \(field.displayName)"
        case .controlSolution: "a control-solution test, not a blood sample"
        case .noSkinContact: "the sensor is not touching the skin"
        case .measurementTimeUnknown(let time): "the device does not know when it was taken (\(time))"
        case .invalid(let error): "refused: \(error)"
        }
    }
}
