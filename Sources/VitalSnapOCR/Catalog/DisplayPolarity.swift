/// Whether a display shows dark segments on a light background (reflective LCD) or light on dark (backlit, LED).
public enum DisplayPolarity: String, Codable, Sendable, Hashable {
    case darkOnLight
    case lightOnDark
    case either

    /// Whether ink of `polarity` can be this display's segments.
    public func admits(_ polarity: InkPolarity) -> Bool {
        switch self {
        case .either: true
        case .darkOnLight: polarity == .dark
        case .lightOnDark: polarity == .light
        }
    }
}

public struct FieldDefinition: Codable, Sendable, Hashable {
    public var name: FieldName
    /// The most digits the field shows, decimals included.
    public var digits: Int
    /// Where the field sits in the display window; nil for generic peripherals.
    public var box: RelativeRect?
    /// The units the field can be shown in; the first is the default.
    public var units: [UnitVariant]

    public init(name: FieldName, digits: Int, box: RelativeRect? = nil, units: [UnitVariant]) {
        self.name = name
        self.digits = digits
        self.box = box
        self.units = units
    }

    public func unit(named unit: String) -> UnitVariant? {
        unitIndex(named: unit).map { units[$0] }
    }

    /// Where `unit(named:)` is in `units`.
    public func unitIndex(named unit: String) -> Int? {
        units.firstIndex { $0.unit.lowercased() == unit.lowercased() }
    }
}

public enum FieldName: String, Codable, Sendable, Hashable, CaseIterable {
    case bloodGlucose, systolic, diastolic, pulse, temperature, spo2, weight, value
    case time, date

    /// Time and date are shown by many meters but are not part of the measurement.
    public var isMeasurement: Bool { self != .time && self != .date }
}

/// How a field looks in one unit: how many decimals the display shows and which values are plausible.
public struct UnitVariant: Codable, Sendable, Hashable {
    public var unit: String
    /// Digits after the decimal point; nil when the display may show any number of them.
    public var decimals: Int?
    /// Plausible values, inclusive; nil when any value is acceptable.
    public var range: [Double]?

    public init(unit: String, decimals: Int?, range: ClosedRange<Double>?) {
        self.unit = unit
        self.decimals = decimals
        self.range = range.map { [$0.lowerBound, $0.upperBound] }
    }

    public var plausibleRange: ClosedRange<Double>? {
        guard let range, range.count == 2, range[0] <= range[1] else { return nil }
        return range[0]...range[1]
    }
}
