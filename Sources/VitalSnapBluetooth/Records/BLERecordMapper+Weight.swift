import Foundation
import VitalSnapRecords

extension BLERecordMapper {
    /// A Weight Measurement (2A9D), read at the resolution its Weight Scale Feature (2A9E) gives: a `WeightRecord`
    /// in kg or lb as the scale sent it. Core's weight record has no BMI or height field, so a scale's BMI and the
    /// height it was given go to `extras` (`bmi`; `height` in centimetres, Validic's unit for it); a zero there
    /// means the scale did not compute them and is left out. "Measurement unsuccessful" gives no record.
    public func record(weight m: WeightMeasurement, payload: [UInt8], receivedAt: Date) -> BLEReadingOutcome {
        guard let weight = m.weight else { return .skipped(.noValue(.weight)) }
        var extras: [String: String] = [:]
        if let bmi = m.bmi, bmi > 0 { extras[BLEExtrasKey.bmi] = DecimalRounding.shortText(bmi) }
        if let height = m.height, height > 0 {
            let centimetresPerUnit = m.units == .imperial ? GATTUnitConversion.centimetresPerInch : GATTUnitConversion.centimetresPerMetre
            extras[BLEExtrasKey.height] = DecimalRounding.shortText(GATTUnitConversion.rounded(height * centimetresPerUnit))
        }
        let unit: WeightUnit = m.units == .imperial ? .pounds : .kilograms
        let header = header(
            characteristic: BLEUUID.short(WeightMeasurement.uuid),
            identity: identity(timestamp: m.timestamp, receivedAt: receivedAt, payload: payload),
            timestamp: liveTimestamp(m.timestamp, receivedAt: receivedAt), extras: extras)
        return validated { () throws(RecordValidationError) in
            .weight(try WeightRecord(header: header, weight: weight, unit: unit))
        }
    }
}
