/// Any record VitalSnap makes: what the upload queue stores and the uploader sends.
///
/// Its JSON is Validic's ingestion body without the authentication token: one key, the record type, holding the
/// record (`{"diabetes": {...}}`).
public enum Record: Sendable, Hashable {
    case diabetes(DiabetesRecord)
    case biometrics(BiometricsRecord)
    case weight(WeightRecord)

    public var type: RecordType {
        switch self {
        case .diabetes: .diabetes
        case .biometrics: .biometrics
        case .weight: .weight
        }
    }

    /// The record itself, for code that needs only what all records share.
    public var healthRecord: any HealthRecord {
        switch self {
        case .diabetes(let record): record
        case .biometrics(let record): record
        case .weight(let record): record
        }
    }

    public var header: RecordHeader {
        get { healthRecord.header }
        set {
            switch self {
            case .diabetes(var record): record.header = newValue; self = .diabetes(record)
            case .biometrics(var record): record.header = newValue; self = .biometrics(record)
            case .weight(var record): record.header = newValue; self = .weight(record)
            }
        }
    }

    public var activityID: String { header.activityID }

    public func validate() throws(RecordValidationError) {
        switch self {
        case .diabetes(let record): try record.validate()
        case .biometrics(let record): try record.validate()
        case .weight(let record): try record.validate()
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
}

extension Record: Codable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        let key = JSONKey(type.rawValue)
        switch self {
        case .diabetes(let record): try container.encode(record, forKey: key)
        case .biometrics(let record): try container.encode(record, forKey: key)
        case .weight(let record): try container.encode(record, forKey: key)
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
        }
    }
}
