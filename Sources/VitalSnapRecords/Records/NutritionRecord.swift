/// What a person ate and drank (Validic `nutrition`): one meal, or a day's total, any subset of its nutrients.
public struct NutritionRecord: MeasurementSetRecord {
    public static let recordType = RecordType.nutrition

    public var header: RecordHeader
    /// Kilocalories eaten.
    public private(set) var calories: Double?
    /// Grams.
    public private(set) var carbohydrates: Double?
    /// Grams.
    public private(set) var fat: Double?
    /// Grams.
    public private(set) var fiber: Double?
    /// Grams.
    public private(set) var protein: Double?
    /// Milligrams, as food labels give it.
    public private(set) var sodium: Double?
    /// Millilitres. Validic's v1 documentation gives water in grams; 1 g of water is 1 mL, so the numbers agree,
    /// and people measure what they drink by volume.
    public private(set) var water: Double?
    /// Nil for a day's total or when not given.
    public var meal: Meal?

    /// At least one value, each in the unit its property documents.
    public init(
        header: RecordHeader,
        calories: Double? = nil,
        carbohydrates: Double? = nil,
        fat: Double? = nil,
        fiber: Double? = nil,
        protein: Double? = nil,
        sodium: Double? = nil,
        water: Double? = nil,
        meal: Meal? = nil
    ) throws(RecordValidationError) {
        self.header = header
        self.calories = calories
        self.carbohydrates = carbohydrates
        self.fat = fat
        self.fiber = fiber
        self.protein = protein
        self.sodium = sodium
        self.water = water
        self.meal = meal
        try validate()
    }

    public var measurements: [(field: RecordField, value: Double)] {
        let all: [(RecordField, Double?)] = [
            (.calories, calories), (.carbohydrates, carbohydrates), (.fat, fat), (.fiber, fiber),
            (.protein, protein), (.sodium, sodium), (.water, water),
        ]
        return all.compactMap { field, value in value.map { (field, $0) } }
    }

    public func validate() throws(RecordValidationError) {
        try checkMeasurements()
    }
}

extension NutritionRecord {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        try writeFields(into: &container)
    }

    func writeFields(into fields: inout some RecordFieldWriter) throws {
        try writeMeasurements(into: &fields)
        try fields.writeIfPresent(meal?.rawValue, forKey: "meal")
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONKey.self)
        let (header, _) = try RecordHeader.decode(from: container)
        func value(_ field: RecordField) throws -> Double? { try container.decodeIfPresent(Double.self, forKey: JSONKey(field)) }
        self.header = header
        self.calories = try value(.calories)
        self.carbohydrates = try value(.carbohydrates)
        self.fat = try value(.fat)
        self.fiber = try value(.fiber)
        self.protein = try value(.protein)
        self.sodium = try value(.sodium)
        self.water = try value(.water)
        self.meal = try container.decodeIfPresent(Meal.self, forKey: "meal")
        try checkDecoded(decoder)
    }
}
