/// The kinds of Bluetooth health device the catalog holds (the SDK's peripheral types).
public enum BLEPeripheralType: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
    case thermometer, bloodPressure, heartRate, glucoseMeter, weightScale, pulseOximeter
    /// A blood coagulation (PT/INR) meter, such as Roche's CoaguChek: not one of the SDK 1.12.1 catalog's types.
    case coagulationMeter

    public var description: String {
        switch self {
        case .thermometer: "thermometer"
        case .bloodPressure: "blood pressure monitor"
        case .heartRate: "heart rate monitor"
        case .glucoseMeter: "glucose meter"
        case .weightScale: "weight scale"
        case .pulseOximeter: "pulse oximeter"
        case .coagulationMeter: "coagulation meter"
        }
    }
}
