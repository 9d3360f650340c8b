import VitalSnapRecords

/// The header every record made from Apple Health data carries: who measured (the export's `sourceName` as the
/// original source, the device's name), that it came through Apple Health (extras `intermediary_source`, the
/// SDK's name for it), and an activity ID derived from the sample's identity, so an export imported twice, or
/// one that overlaps the last, is stored once.
enum HealthRecordHeader {
    static let intermediaryKey = "intermediary_source"
    /// The SDK's intermediary source for Apple Health.
    static let intermediaryValue = "Apple Health"
    /// Metadata HealthKit sets on samples a person typed in.
    static let userEnteredKey = "HKWasUserEntered"
    /// Separates the parts of an activity ID's name.
    static let separator = "|"

    static func make(
        identity: [String], at date: HealthDate, sourceName: String, deviceName: String?, userEntered: Bool
    ) -> RecordHeader {
        // The ID of `["apple-health"] + identity` joined by the separator, hashed part by part.
        var derivation = ActivityID.Derivation(separator: separator)
        derivation.append(namespace)
        for part in identity { derivation.append(part) }
        return RecordHeader(
            activityID: derivation.id(),
            timestamp: date.date,
            utcOffset: date.offset,
            originalSource: sourceName.isEmpty ? nil : sourceName,
            device: deviceName,
            validated: !userEntered,
            extras: extras)
    }

    /// The first part of every Apple Health record's identity.
    static let namespace = "apple-health"
    /// One dictionary for every record's extras (a copy is a reference, not a new dictionary per record).
    static let extras = [intermediaryKey: intermediaryValue]

    /// `<<HKDevice: 0x282a45810>, name:Apple Watch, manufacturer:Apple, ...>` → `Apple Watch`.
    static func deviceName(_ text: String) -> String? {
        guard let start = text.range(of: "name:") else { return text.hasPrefix("<<") ? nil : text }
        let rest = text[start.upperBound...]
        let end = rest.firstIndex(of: ",") ?? rest.firstIndex(of: ">") ?? rest.endIndex
        let name = rest[..<end].trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : name
    }
}
