/// A measurement a record carries, with the unit records store it in and the values that are physically possible.
///
/// The raw value is the field's JSON name in Validic's ingestion body.
public enum RecordField: String, Codable, Sendable, Hashable, CaseIterable {
    case bloodGlucose = "blood_glucose"
    case systolic
    case diastolic
    /// Pulse, from a blood pressure monitor or a pulse oximeter: Validic's `restingHeartrate`.
    case restingHeartRate = "resting_heartrate"
    case temperature
    case spo2
    case weight

    /// The name in messages to people.
    public var displayName: String {
        switch self {
        case .bloodGlucose: "blood glucose"
        case .systolic: "systolic pressure"
        case .diastolic: "diastolic pressure"
        case .restingHeartRate: "pulse"
        case .temperature: "temperature"
        case .spo2: "SpO2"
        case .weight: "weight"
        }
    }

    /// The unit records store this field in.
    public var canonicalUnit: String {
        switch self {
        case .bloodGlucose: GlucoseUnit.canonical.symbol
        case .systolic, .diastolic: "mmHg"
        case .restingHeartRate: "bpm"
        case .temperature: TemperatureUnit.canonical.symbol
        case .spo2: "%"
        case .weight: WeightUnit.canonical.symbol
        }
    }

    /// Values (in the canonical unit) a living person can have, or a device can report about one.
    ///
    /// Deliberately wider than a display's plausible range (the OCR's stricter check): this range only rejects
    /// values that must be errors (a unit mix-up, a misplaced decimal point), never a rare true reading.
    public var physicalRange: ClosedRange<Double> {
        switch self {
        case .bloodGlucose: 1...2000
        case .systolic: 40...300
        case .diastolic: 20...250
        case .restingHeartRate: 20...300
        case .temperature: 25...45
        case .spo2: 0...100
        case .weight: 0.5...700
        }
    }

    /// Throws unless `value` is a finite number within `physicalRange`.
    public func check(_ value: Double) throws(RecordValidationError) {
        guard value.isFinite, physicalRange.contains(value) else {
            throw .outOfRange(field: self, value: value, range: physicalRange)
        }
    }
}
