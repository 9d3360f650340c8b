/// Keys of a record's `extras`, the free-form metadata Validic keeps with a record.
public enum ExtrasKey {
    /// The peripheral that produced the record (Android SDK `Record$ExtrasKey`). Written from
    /// `RecordHeader.peripheralID`; not to be set in `extras` directly.
    public static let peripheralID = "peripheral_id"
    /// The measurements as the device showed them, `{field: {value, unit}}` (Android SDK). Written from the
    /// records' displayed values; not to be set in `extras` directly.
    public static let rawData = "raw_data"
    /// A note by the person (Android SDK).
    public static let comment = "comment"

    /// Keys the records write from typed properties.
    public static let reserved: Set<String> = [peripheralID, rawData]
}
