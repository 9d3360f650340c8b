/// Any record VitalSnap makes: what the upload queue stores and the uploader sends.
///
/// Its JSON is Validic's ingestion body without the authentication token: one key, the record type, holding the
/// record (`{"diabetes": {...}}`).
public enum Record: Sendable, Hashable {
    case diabetes(DiabetesRecord)
    case biometrics(BiometricsRecord)
    case weight(WeightRecord)
    case routine(RoutineRecord)
    case fitness(FitnessRecord)
    case nutrition(NutritionRecord)
    case sleep(SleepRecord)

    public var type: RecordType {
        switch self {
        case .diabetes: .diabetes
        case .biometrics: .biometrics
        case .weight: .weight
        case .routine: .routine
        case .fitness: .fitness
        case .nutrition: .nutrition
        case .sleep: .sleep
        }
    }

    /// The record itself, for code that needs only what all records share.
    public var healthRecord: any HealthRecord {
        switch self {
        case .diabetes(let record): record
        case .biometrics(let record): record
        case .weight(let record): record
        case .routine(let record): record
        case .fitness(let record): record
        case .nutrition(let record): record
        case .sleep(let record): record
        }
    }

    public var header: RecordHeader {
        get { healthRecord.header }
        set {
            switch self {
            case .diabetes(var record): record.header = newValue; self = .diabetes(record)
            case .biometrics(var record): record.header = newValue; self = .biometrics(record)
            case .weight(var record): record.header = newValue; self = .weight(record)
            case .routine(var record): record.header = newValue; self = .routine(record)
            case .fitness(var record): record.header = newValue; self = .fitness(record)
            case .nutrition(var record): record.header = newValue; self = .nutrition(record)
            case .sleep(var record): record.header = newValue; self = .sleep(record)
            }
        }
    }

    public var activityID: String { header.activityID }

    public func validate() throws(RecordValidationError) {
        switch self {
        case .diabetes(let record): try record.validate()
        case .biometrics(let record): try record.validate()
        case .weight(let record): try record.validate()
        case .routine(let record): try record.validate()
        case .fitness(let record): try record.validate()
        case .nutrition(let record): try record.validate()
        case .sleep(let record): try record.validate()
        }
    }

    public var diabetes: DiabetesRecord? {
        if case .diabetes(let record) = self { record } else { nil }
    }

    public var biometrics: BiometricsRecord? {
        if case .biometrics(let record) = self { record } else { nil }
    }

    public var weight: WeightRecord? {
        if case .weight(let record) = self { record } else { nil }
    }

    public var routine: RoutineRecord? {
        if case .routine(let record) = self { record } else { nil }
    }

    public var fitness: FitnessRecord? {
        if case .fitness(let record) = self { record } else { nil }
    }

    public var nutrition: NutritionRecord? {
        if case .nutrition(let record) = self { record } else { nil }
    }

    public var sleep: SleepRecord? {
        if case .sleep(let record) = self { record } else { nil }
    }
}

extension Record: Codable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        try writeFields(into: &container)
    }

    /// The record under its type's key.
    func writeFields(into fields: inout some RecordFieldWriter) throws {
        try fields.writeObject(forKey: type.rawValue) { object in
            switch self {
            case .diabetes(let record): try record.writeFields(into: &object)
            case .biometrics(let record): try record.writeFields(into: &object)
            case .weight(let record): try record.writeFields(into: &object)
            case .routine(let record): try record.writeFields(into: &object)
            case .fitness(let record): try record.writeFields(into: &object)
            case .nutrition(let record): try record.writeFields(into: &object)
            case .sleep(let record): try record.writeFields(into: &object)
            }
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONKey.self)
        let types = container.allKeys.compactMap { key in RecordType(rawValue: key.stringValue).map { (key, $0) } }
        guard types.count == 1, let (key, type) = types.first else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "expected one record keyed by its type (\(RecordType.allCases.map(\.rawValue).joined(separator: ", "))), "
                    + "found keys \(container.allKeys.map(\.stringValue).sorted())"))
        }
        switch type {
        case .diabetes: self = .diabetes(try container.decode(DiabetesRecord.self, forKey: key))
        case .biometrics: self = .biometrics(try container.decode(BiometricsRecord.self, forKey: key))
        case .weight: self = .weight(try container.decode(WeightRecord.self, forKey: key))
        case .routine: self = .routine(try container.decode(RoutineRecord.self, forKey: key))
        case .fitness: self = .fitness(try container.decode(FitnessRecord.self, forKey: key))
        case .nutrition: self = .nutrition(try container.decode(NutritionRecord.self, forKey: key))
        case .sleep: self = .sleep(try container.decode(SleepRecord.self, forKey: key))
        }
    }
}
