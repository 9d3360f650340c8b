/// The kinds of device the training scenes show: the medical meters VitalSnap reads and the non-medical
/// seven-segment displays of the reference data sets (fuel pumps, electricity meters, panel meters).
public enum DeviceProgram: String, Sendable, Hashable, CaseIterable {
    case glucose
    case bloodPressure = "blood-pressure"
    case thermometer
    case scale
    case oximeter
    case electricityMeter = "electricity-meter"
    case fuelPump = "fuel-pump"
    case panelMeter = "panel-meter"
    case multimeter

    /// Fuel pumps, electricity and panel meters: mounted on a wall or in a cabinet, not lying on a table.
    var isInstallation: Bool { self == .fuelPump || self == .electricityMeter || self == .panelMeter }

    /// Display technologies this kind of device has, with weights.
    var displayKinds: [Weighted<DisplayKind>] {
        switch self {
        case .glucose:
            [.init(.reflectiveLCD, 0.55), .init(.backlitLCD, 0.2), .init(.negativeLCD, 0.05), .init(.oled, 0.1), .init(.colorScreen, 0.1)]
        case .bloodPressure:
            [.init(.reflectiveLCD, 0.55), .init(.backlitLCD, 0.22), .init(.negativeLCD, 0.06), .init(.colorScreen, 0.12), .init(.oled, 0.05)]
        case .thermometer:
            [.init(.reflectiveLCD, 0.6), .init(.backlitLCD, 0.3), .init(.negativeLCD, 0.1)]
        case .scale:
            [.init(.reflectiveLCD, 0.35), .init(.backlitLCD, 0.25), .init(.negativeLCD, 0.15), .init(.led, 0.25)]
        case .oximeter:
            [.init(.oled, 0.5), .init(.led, 0.2), .init(.colorScreen, 0.15), .init(.reflectiveLCD, 0.1), .init(.backlitLCD, 0.05)]
        case .electricityMeter:
            [.init(.reflectiveLCD, 0.4), .init(.backlitLCD, 0.6)]
        case .fuelPump:
            [.init(.reflectiveLCD, 0.7), .init(.backlitLCD, 0.3)]
        case .panelMeter:
            [.init(.led, 0.6), .init(.vfd, 0.15), .init(.reflectiveLCD, 0.15), .init(.backlitLCD, 0.1)]
        case .multimeter:
            [.init(.reflectiveLCD, 0.8), .init(.backlitLCD, 0.2)]
        }
    }
}
