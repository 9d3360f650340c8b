public enum FieldName: String, Codable, Sendable, Hashable, CaseIterable {
    case bloodGlucose, systolic, diastolic, pulse, temperature, spo2, weight, value
    case time, date

    /// Time and date are shown by many meters but are not part of the measurement.
    public var isMeasurement: Bool { self != .time && self != .date }
}
