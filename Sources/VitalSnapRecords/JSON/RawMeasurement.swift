/// One entry of `extras.raw_data`: the value as text and its unit, as Validic's SDKs write it.
struct RawMeasurement: Codable, Sendable, Hashable {
    var value: String
    var unit: String
}
