/// The kinds of Bluetooth health device the catalog holds (the SDK's peripheral types).
public enum BLEPeripheralType: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
    case thermometer, bloodPressure, heartRate, glucoseMeter, weightScale, pulseOximeter

    public var description: String {
        switch self {
        case .thermometer: "thermometer"
        case .bloodPressure: "blood pressure monitor"
        case .heartRate: "heart rate monitor"
        case .glucoseMeter: "glucose meter"
        case .weightScale: "weight scale"
        case .pulseOximeter: "pulse oximeter"
        }
    }
}
