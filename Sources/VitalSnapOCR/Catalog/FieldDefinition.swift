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
