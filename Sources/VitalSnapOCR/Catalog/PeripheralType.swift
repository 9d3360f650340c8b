/// The kind of device an OCR peripheral reads; decides which record a reading becomes.
public enum PeripheralType: String, Codable, Sendable, CaseIterable {
    case thermometer
    case bloodPressureMonitor
    case weightScale
    case pulseOximeter
    case glucoseMeter
    case numericDisplay

    /// The name the mobile SDK uses for the type.
    public var displayName: String {
        switch self {
        case .thermometer: "Thermometer"
        case .bloodPressureMonitor: "Blood Pressure Monitor"
        case .weightScale: "Weight Scale"
        case .pulseOximeter: "Pulse Oximeter"
        case .glucoseMeter: "Glucose Meter"
        case .numericDisplay: "Numeric Display"
        }
    }
}
