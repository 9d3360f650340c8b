/// Units of body weight. Records store kilograms, as Validic's `VLDWeight.weight` does.
public enum WeightUnit: String, HealthUnit {
    case kilograms = "kg"
    case pounds = "lb"
    case stones = "st"

    public static let canonical = WeightUnit.kilograms

    /// Kilograms in one pound: exact by definition (international pound, 1959), also the Android SDK's factor.
    public static let kilogramsPerPound = 0.45359237
    /// Kilograms in one stone (14 lb): exact, also the Android SDK's factor.
    public static let kilogramsPerStone = 6.35029318

    /// Bathroom scales show tenths in every unit.
    public var displayDecimals: Int { 1 }

    private var kilogramsPerUnit: Double {
        switch self {
        case .kilograms: 1
        case .pounds: Self.kilogramsPerPound
        case .stones: Self.kilogramsPerStone
        }
    }

    public func toCanonical(_ value: Double) -> Double {
        self == .kilograms
            ? value : DecimalRounding.round(value * kilogramsPerUnit, decimals: DecimalRounding.conversionDecimals)
    }

    public func fromCanonical(_ canonicalValue: Double) -> Double {
        self == .kilograms
            ? canonicalValue
            : DecimalRounding.round(canonicalValue / kilogramsPerUnit, decimals: DecimalRounding.conversionDecimals)
    }

    /// Accepts `kg`, `kgs`, `kilo(gram)s`, `lb`, `lbs`, `pound(s)`, `st`, `stone(s)`.
    public init?(parsing text: String) {
        switch UnitText.normalized(text) {
        case "kg", "kgs", "kilo", "kilos", "kilogram", "kilograms", "kilogramme", "kilogrammes": self = .kilograms
        case "lb", "lbs", "pound", "pounds": self = .pounds
        case "st", "stone", "stones": self = .stones
        default: return nil
        }
    }
}
