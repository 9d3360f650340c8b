/// The `extras` keys and values of records read over Bluetooth. Names follow Validic's SDK where it has one
/// (validic-sdk-facts.md, 2b, 2c, 2e); the others are VitalSnap's.
public enum BLEExtrasKey {
    /// How the record reached the phone (the SDK's key).
    public static let connectionType = "connection_type"
    /// `connection_type` of every record read over Bluetooth.
    public static let bluetoothConnection = "bluetooth"
    /// A glucose result beyond what the meter can measure (the SDK's key), valued `Low` or `High`.
    public static let outOfRange = "out_of_range"
    public static let outOfRangeLow = "Low"
    public static let outOfRangeHigh = "High"
    /// A glucose meter's meal context that Validic's meal relationship has no value for (`bedtime`).
    public static let mealContext = "meal_context"
    public static let mealContextBedtime = "bedtime"
    /// A blood pressure monitor's mean arterial pressure in mmHg (the SDK's key).
    public static let meanArterialPressure = "mean_arterial_pressure"
    /// A scale's body mass index (kg/m²); the weight record has no field for it.
    public static let bmi = "bmi"
    /// A scale's height of the person, in centimetres (the unit of Validic's weight `height`); the weight record
    /// has no field for it.
    public static let height = "height"
}
