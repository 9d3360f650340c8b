/// Units of blood glucose. Records store mg/dL, as Validic's `VLDDiabetes.bloodGlucose` does.
public enum GlucoseUnit: String, HealthUnit {
    case mgPerDL = "mg/dL"
    case mmolPerL = "mmol/L"

    public static let canonical = GlucoseUnit.mgPerDL

    /// mg/dL in one mmol/L. Exactly 18, because that is the factor Validic's Android SDK uses
    /// (`Unit$Glucose.convert`, v1.12.15) and records must agree with what the mobile SDK would upload for the same
    /// reading; Google Fit states the same equivalence. The chemically exact factor from glucose's molar mass is
    /// 18.015588 (Apple HealthKit's `HKUnitMolarMassBloodGlucose`), and xDrip/Nightscout use 18.0182 or 18.01559;
    /// the difference (0.1 %) is far below a meter's accuracy and below the display's last digit up to 55 mmol/L.
    public static let mgPerDLPerMmolPerL = 18.0

    /// mg/dL is shown as a whole number, mmol/L with one decimal, as meters show them.
    public var displayDecimals: Int {
        switch self {
        case .mgPerDL: 0
        case .mmolPerL: 1
        }
    }

    public func toCanonical(_ value: Double) -> Double {
        switch self {
        case .mgPerDL: value
        case .mmolPerL: DecimalRounding.round(value * Self.mgPerDLPerMmolPerL, decimals: DecimalRounding.conversionDecimals)
        }
    }

    public func fromCanonical(_ canonicalValue: Double) -> Double {
        switch self {
        case .mgPerDL: canonicalValue
        case .mmolPerL:
            DecimalRounding.round(canonicalValue / Self.mgPerDLPerMmolPerL, decimals: DecimalRounding.conversionDecimals)
        }
    }

    /// Accepts `mg/dL`, `mg/dl`, `mgdl`, `mg per dL`, `mg/100mL`, `mmol/L`, `mmol/l`, `mmol`, `mM`.
    public init?(parsing text: String) {
        switch UnitText.normalized(text).replacingOccurrences(of: "per", with: "/") {
        case "mg/dl", "mgdl", "mg/100ml": self = .mgPerDL
        case "mmol/l", "mmoll", "mmol", "mm", "mmol/litre", "mmol/liter": self = .mmolPerL
        default: return nil
        }
    }
}
