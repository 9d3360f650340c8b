/// The device names of the export's `device` attributes, each worked out once: an export repeats the same few
/// device descriptions millions of times, and reading the name out of one costs more than a dictionary lookup.
final class HealthDeviceNames {
    private var names: [String: String?] = [:]
    /// A cache for a hostile export full of distinct descriptions must not grow without bound.
    static let largestCache = 10_000

    func name(_ description: String?) -> String? {
        guard let description else { return nil }
        if let known = names[description] { return known }
        let name = HealthRecordHeader.deviceName(description)
        if names.count < Self.largestCache { names[description] = name }
        return name
    }
}
