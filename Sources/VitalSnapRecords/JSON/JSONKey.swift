/// A JSON object key given by its string. Records write their common and their own fields into one object, and
/// `extras` has open-ended keys, so a fixed `CodingKeys` enum does not fit.
struct JSONKey: CodingKey, Hashable, ExpressibleByStringLiteral {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) { stringValue = string }
    init(_ field: RecordField) { stringValue = field.rawValue }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    init(stringLiteral value: String) { stringValue = value }
}
