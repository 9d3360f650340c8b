/// Units of body temperature. Records store degrees Celsius, as Validic's `VLDBiometrics.temperature` does.
public enum TemperatureUnit: String, HealthUnit {
    case celsius = "°C"
    case fahrenheit = "°F"

    public static let canonical = TemperatureUnit.celsius

    /// Clinical thermometers show tenths of a degree in both scales.
    public var displayDecimals: Int { 1 }

    public func toCanonical(_ value: Double) -> Double {
        switch self {
        case .celsius: value
        case .fahrenheit: DecimalRounding.round((value - 32) * 5 / 9, decimals: DecimalRounding.conversionDecimals)
        }
    }

    public func fromCanonical(_ canonicalValue: Double) -> Double {
        switch self {
        case .celsius: canonicalValue
        case .fahrenheit: DecimalRounding.round(canonicalValue * 9 / 5 + 32, decimals: DecimalRounding.conversionDecimals)
        }
    }

    /// Accepts `°C`, `ºC`, `℃`, `C`, `degC`, `celsius`, `centigrade` and the Fahrenheit counterparts.
    public init?(parsing text: String) {
        switch UnitText.normalized(text) {
        case "°c", "c", "degc", "deg°c", "celsius", "°celsius", "centigrade": self = .celsius
        case "°f", "f", "degf", "deg°f", "fahrenheit", "°fahrenheit": self = .fahrenheit
        default: return nil
        }
    }
}
