/// A value as the device showed it, in the unit it showed it in.
///
/// Records store canonical units, but the conversion cannot be undone exactly after rounding (5.6 mmol/L is
/// 100.8 mg/dL, which shows as 101 mg/dL). Keeping what the display said lets an app show the person the number
/// they saw and lets anyone audit the conversion. On the wire it is `extras.raw_data` (Validic's Android SDK).
public struct DisplayedValue<Unit: HealthUnit>: Sendable, Hashable {
    public let value: Double
    public let unit: Unit

    public init(_ value: Double, _ unit: Unit) {
        self.value = value
        self.unit = unit
    }

    /// As a display shows it: `5.6`, `123`, `98.6`.
    public var text: String { DecimalRounding.text(value, minimumDecimals: unit.displayDecimals) }

    public var canonicalValue: Double { unit.toCanonical(value) }

    var rawMeasurement: RawMeasurement { RawMeasurement(value: text, unit: unit.symbol) }

    init?(_ raw: RawMeasurement) {
        guard let value = Double(raw.value), let unit = Unit(parsing: raw.unit) else { return nil }
        self.init(value, unit)
    }
}
