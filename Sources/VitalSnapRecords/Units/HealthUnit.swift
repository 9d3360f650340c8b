/// A unit a measurement can be shown in, convertible to and from the one unit records store (its canonical unit).
///
/// Records keep canonical values at full conversion precision and round only when showing a value: converting
/// for display loses information (100 mg/dL shows as 5.6 mmol/L, which is 100.8 mg/dL), so the unit and value a
/// device showed are kept beside the canonical value instead of being recomputed.
public protocol HealthUnit: RawRepresentable, CaseIterable, Codable, Sendable, Hashable where RawValue == String {
    /// The unit records store values in.
    static var canonical: Self { get }
    /// Digits after the decimal point when a value in this unit is shown to a person.
    var displayDecimals: Int { get }
    /// `value` in this unit, converted to the canonical unit (10 decimals kept).
    func toCanonical(_ value: Double) -> Double
    /// A canonical value converted to this unit (10 decimals kept, not rounded for display).
    func fromCanonical(_ canonicalValue: Double) -> Double
    /// The unit written the way people and peripheral definitions write it; nil when not recognized.
    init?(parsing text: String)
}

extension HealthUnit {
    /// The unit as displays and the Validic SDK write it (`mg/dL`, `°C`, `kg`).
    public var symbol: String { rawValue }

    public static func convert(_ value: Double, from source: Self, to target: Self) -> Double {
        source == target ? value : target.fromCanonical(source.toCanonical(value))
    }

    /// `value` (in this unit) rounded the way this unit is shown.
    public func rounded(_ value: Double) -> Double {
        DecimalRounding.round(value, decimals: displayDecimals)
    }

    /// A canonical value converted to this unit and rounded for display: 100 mg/dL in mmol/L is 5.6.
    public func displayValue(fromCanonical canonicalValue: Double) -> Double {
        rounded(fromCanonical(canonicalValue))
    }

    /// `value` (in this unit) as shown: `101`, `5.6`, `37.0`.
    public func format(_ value: Double) -> String {
        DecimalRounding.text(value, decimals: displayDecimals)
    }
}
