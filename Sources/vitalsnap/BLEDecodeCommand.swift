import ArgumentParser
import VitalSnapBluetooth

/// `vitalsnap ble decode --characteristic 2A18 HEX...`: what a payload decodes to, for people debugging a meter.
struct BLEDecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Print what a GATT health characteristic's value decodes to, as JSON.",
        discussion: """
            The value is given in hexadecimal, as one argument or several (spaces, colons and a 0x prefix are \
            ignored), least significant byte first as it travels. Characteristics: 2A18 glucose measurement, \
            2A34 its context, 2A52 the record access control point's responses, 2A35 blood pressure, 2A1C temperature, 2A9D weight (with --feature, the scale's 2A9E value, for \
            its resolution), 2A5E and 2A5F pulse oximetry, 2A37 heart rate, and the Nonin 3230's frame \
            (\(NoninOximetryFrame.characteristicUUID)). Numbers the device marked as \
            special (NaN, NRes, +INF, -INF) are printed as those words.

            Exit status: 0 when the value decodes, 1 when it does not (the field it stopped in is named), 64 for \
            a usage error.

            Examples:
              vitalsnap ble decode --characteristic 2A18 1B0100E307021B0B0A1EFBFF1E00120501
              vitalsnap ble decode -c 2A35 1e8a00580078000000041114293b3c00012700
              vitalsnap ble decode -c 2A9D --feature 98000000 08BC02E500B400
            """)

    @Option(name: .shortAndLong, help: ArgumentHelp("The characteristic's 16-bit UUID, e.g. 2A18.", valueName: "uuid"))
    var characteristic: String
    @Option(help: ArgumentHelp("2A9D only: the scale's Weight Scale Feature (2A9E) value, in hex.", valueName: "hex"))
    var feature: String?
    @Argument(help: ArgumentHelp("The value in hexadecimal.", valueName: "hex")) var value: [String]

    static let known = ["2A18", "2A34", "2A52", "2A35", "2A1C", "2A9D", "2A5E", "2A5F", "2A37", NoninOximetryFrame.characteristicUUID]

    func validate() throws {
        guard Self.known.contains(normalizedUUID) else {
            throw ValidationError("--characteristic \(characteristic) is not one this decodes (\(Self.known.joined(separator: ", ")))")
        }
        _ = try Self.bytes(value.joined())
        if let feature { _ = try Self.bytes(feature) }
    }

    /// `2A18`, `0x2a18` and BlueZ's `00002a18-0000-1000-8000-00805f9b34fb` alike.
    var normalizedUUID: String { BLEUUID.normalized(characteristic) }

    /// `1B 01 00`, `1b0100`, `0x1B:01:00` -> [0x1B, 0x01, 0x00].
    static func bytes(_ text: String) throws -> [UInt8] {
        var digits = text.replacingOccurrences(of: "0x", with: "").replacingOccurrences(of: "0X", with: "")
        digits.removeAll { $0 == " " || $0 == ":" || $0 == "-" }
        guard !digits.isEmpty else { throw ValidationError("no value given") }
        guard HexText.problem(digits) == nil else {
            throw ValidationError("the value must be pairs of hexadecimal digits (got \(text))")
        }
        return HexText.bytes(digits)
    }

    func run() throws {
        let bytes = try Self.bytes(value.joined())
        do {
            print(try Self.decode(normalizedUUID, bytes, feature: feature.map { try Self.bytes($0) }).render(pretty: true))
        } catch let error as GATTDecodeError {
            throw CommandFailure(error.description)
        }
    }

    static func decode(_ uuid: String, _ bytes: [UInt8], feature: [UInt8]?) throws -> JSONText {
        switch uuid {
        case "2A18":
            let m = try GlucoseMeasurement(bytes)
            return .object([
                ("characteristic", .string("glucose measurement")), ("sequenceNumber", .int(Int(m.sequenceNumber))),
                ("baseTime", .string(m.baseTime.description)), ("timeOffsetMinutes", m.timeOffsetMinutes.map(JSONText.int) ?? .null),
                ("concentration", number(m.concentration)), ("unit", .string(m.unit.rawValue)),
                ("mgdL", m.milligramsPerDecilitre.map(JSONText.number) ?? .null),
                ("sampleType", m.sampleType.map(JSONText.int) ?? .null), ("sampleLocation", m.sampleLocation.map(JSONText.int) ?? .null),
                ("sensorStatus", m.sensorStatus.map { hex(Int($0.rawValue), digits: 4) } ?? .null),
                ("contextFollows", .bool(m.contextFollows)),
            ])
        case "2A34":
            let c = try GlucoseMeasurementContext(bytes)
            return .object([
                ("characteristic", .string("glucose measurement context")), ("sequenceNumber", .int(Int(c.sequenceNumber))),
                ("carbohydrate", c.carbohydrate.map { .object([("id", .int($0.id)), ("grams", number($0.grams))]) } ?? .null),
                ("meal", c.mealValue.map(JSONText.int) ?? .null), ("tester", c.tester.map(JSONText.int) ?? .null),
                ("health", c.health.map(JSONText.int) ?? .null),
                ("exercise", c.exercise.map { .object([("durationSeconds", .int($0.durationSeconds)), ("intensityPercent", .int($0.intensityPercent))]) } ?? .null),
                ("medication", c.medication.map { .object([("id", .int($0.id)), ("amount", number($0.amount)), ("of", .string($0.unit.rawValue))]) } ?? .null),
                ("hba1cPercent", number(c.hba1cPercent)),
            ])
        case "2A52":
            switch try RecordAccessControlPoint.Response(bytes) {
            case .numberOfRecords(let n):
                return .object([("characteristic", .string("record access control point")), ("numberOfRecords", .int(n))])
            case .response(let request, let code):
                return .object([
                    ("characteristic", .string("record access control point")), ("requestOpCode", .int(Int(request))),
                    ("response", .string(code.description)),
                ])
            }
        case "2A35":
            let m = try BloodPressureMeasurement(bytes)
            return .object([
                ("characteristic", .string("blood pressure measurement")), ("unit", .string(m.unit.rawValue)),
                ("systolic", number(m.systolic)), ("diastolic", number(m.diastolic)),
                ("meanArterialPressure", number(m.meanArterialPressure)), ("timestamp", date(m.timestamp)),
                ("pulseRate", number(m.pulseRate)), ("userID", m.userID.map { .int(Int($0)) } ?? .null),
                ("status", m.status.map { hex(Int($0.rawValue), digits: 4) } ?? .null),
            ])
        case "2A1C":
            let m = try TemperatureMeasurement(bytes)
            return .object([
                ("characteristic", .string("temperature measurement")), ("temperature", number(m.temperature)),
                ("unit", .string(m.unit.rawValue)), ("timestamp", date(m.timestamp)), ("type", m.type.map(JSONText.int) ?? .null),
            ])
        case "2A9D":
            let m = try WeightMeasurement(bytes, feature: try feature.map { try WeightScaleFeature($0) })
            return .object([
                ("characteristic", .string("weight measurement")), ("weight", m.weight.map(JSONText.number) ?? .null),
                ("unit", .string(m.units.rawValue)), ("timestamp", date(m.timestamp)),
                ("userID", m.userID.map { .int(Int($0)) } ?? .null), ("bmi", m.bmi.map(JSONText.number) ?? .null),
                ("height", m.height.map(JSONText.number) ?? .null), ("heightUnit", .string(m.units == .si ? "m" : "in")),
            ])
        case "2A5E":
            let m = try PLXSpotCheckMeasurement(bytes)
            return .object([
                ("characteristic", .string("PLX spot-check measurement")), ("spo2", number(m.spo2)), ("pulseRate", number(m.pulseRate)),
                ("timestamp", date(m.timestamp)), ("measurementStatus", m.measurementStatus.map { hex(Int($0), digits: 4) } ?? .null),
                ("deviceAndSensorStatus", m.deviceAndSensorStatus.map { hex(Int($0), digits: 6) } ?? .null),
                ("pulseAmplitudeIndex", number(m.pulseAmplitudeIndex)), ("deviceClockNotSet", .bool(m.deviceClockNotSet)),
            ])
        case "2A5F":
            let m = try PLXContinuousMeasurement(bytes)
            return .object([
                ("characteristic", .string("PLX continuous measurement")), ("spo2", number(m.spo2)), ("pulseRate", number(m.pulseRate)),
                ("fast", m.fast.map { .object([("spo2", number($0.spo2)), ("pulseRate", number($0.pulseRate))]) } ?? .null),
                ("slow", m.slow.map { .object([("spo2", number($0.spo2)), ("pulseRate", number($0.pulseRate))]) } ?? .null),
                ("measurementStatus", m.measurementStatus.map { hex(Int($0), digits: 4) } ?? .null),
                ("deviceAndSensorStatus", m.deviceAndSensorStatus.map { hex(Int($0), digits: 6) } ?? .null),
                ("pulseAmplitudeIndex", number(m.pulseAmplitudeIndex)),
            ])
        case NoninOximetryFrame.characteristicUUID:
            let m = try NoninOximetryFrame(bytes)
            return .object([
                ("characteristic", .string("Nonin 3230 oximetry frame")), ("spo2", m.spo2.map(JSONText.int) ?? .null),
                ("pulseRate", m.pulseRate.map(JSONText.int) ?? .null), ("status", hex(Int(m.status), digits: 2)),
                ("battery", .int(Int(m.battery))), ("pulseAmplitudeIndex", .int(Int(m.pulseAmplitudeIndex))),
                ("counter", .int(Int(m.counter))),
            ])
        default:
            let m = try HeartRateMeasurement(bytes)
            return .object([
                ("characteristic", .string("heart rate measurement")), ("beatsPerMinute", .int(m.beatsPerMinute)),
                ("sensorContact", m.sensorContact.map(JSONText.bool) ?? .null),
                ("energyExpendedKJ", m.energyExpended.map(JSONText.int) ?? .null),
                ("rrIntervalsSeconds", .array(m.rrIntervals.map(JSONText.number))),
            ])
        }
    }

    /// A number, the special value's name, or null when absent.
    static func number(_ value: MedicalFloat?) -> JSONText {
        guard let value else { return .null }
        return value.double.map(JSONText.number) ?? .string(value.description)
    }

    static func date(_ value: GATTDateTime?) -> JSONText { value.map { .string($0.description) } ?? .null }

    static func hex(_ value: Int, digits: Int) -> JSONText {
        let text = String(value, radix: 16, uppercase: true)
        return .string("0x" + String(repeating: "0", count: max(0, digits - text.count)) + text)
    }
}
