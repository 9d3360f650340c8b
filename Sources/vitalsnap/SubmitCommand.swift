import ArgumentParser
import Foundation
import VitalSnapCore
import VitalSnapRecords

/// Manual entry: a measurement typed in, queued like a camera reading and uploaded when a session exists.
struct SubmitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit",
        abstract: "Queue a measurement typed in by hand, and upload it when a session exists.",
        discussion: """
            The record is stored before anything is sent, so it is never lost: without a session, or with \
            the server out of reach, it waits in the queue (`vitalsnap queue list`).

            Examples:
              vitalsnap submit glucose 5.6 --unit mmol --meal before
              vitalsnap submit glucose 104 --image meter.jpg
              vitalsnap submit blood-pressure 128/82 --pulse 71
              vitalsnap submit weight 180.4 --unit lb
              vitalsnap submit temperature 99.1 --unit F
              vitalsnap submit spo2 97 --pulse 64
            """,
        subcommands: [Glucose.self, BloodPressure.self, Weight.self, Temperature.self, SpO2.self])

    /// What every manual entry takes besides its value.
    struct EntryOptions: ParsableArguments {
        @Option(help: ArgumentHelp("A photo of the display to upload with the record (JPEG or PNG).", valueName: "file"))
        var image: String?
        @Option(help: ArgumentHelp("When it was measured, ISO 8601 with offset (default: now), e.g. 2026-11-22T08:15:00+01:00.", valueName: "time"))
        var time: String?
        @Flag(help: "Only queue it; do not upload now.") var noUpload = false
        @OptionGroup var state: StateOptions

        mutating func validate() throws {
            if let time, RecordTimestamp.parse(time) == nil {
                throw ValidationError("--time \(time) is not an ISO 8601 time with an offset, e.g. 2026-11-22T08:15:00+01:00")
            }
            if let image {
                guard let data = FileManager.default.contents(atPath: image) else { throw ValidationError("--image \(image) cannot be read") }
                guard data.starts(with: [0xFF, 0xD8]) || data.starts(with: [0x89, 0x50, 0x4E, 0x47]) else {
                    throw ValidationError("--image \(image) is not a JPEG or PNG file")
                }
            }
        }

        func header() -> RecordHeader {
            if let time, let parsed = RecordTimestamp.parse(time) {
                return RecordHeader(timestamp: parsed.date, utcOffset: parsed.offset)
            }
            let now = Date()
            return RecordHeader(timestamp: now, utcOffset: UTCOffset(timeZone: .current, at: now))
        }

        /// Queues `record` (for the session's user, or for the next session), then uploads when there is a session.
        func submit(_ make: (RecordHeader) throws(RecordValidationError) -> Record, describing text: String) async throws {
            state.bootstrapLogging()
            let record: Record
            do { record = try make(header()) } catch { throw ValidationError(error.description) }
            let imageData = try image.map { path -> Data in
                guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("cannot read \(path)") }
                return data
            }
            let queue = try state.openQueue()
            let session = try state.loadSession()
            do {
                try queue.submit(record, image: imageData, owner: session?.ownerKey)
            } catch let error as StorageError {
                throw CLIError("not queued: \(error.description)")
            } catch {
                throw CLIError("not queued: \(error)")
            }
            print("queued \(record.type.rawValue) \(text) (activity id \(record.activityID))")
            guard let session else {
                printError("no session: the record waits in the queue until `vitalsnap session start`")
                return
            }
            if noUpload { return }
            let summary = try await UploadRun.run(queue: queue, session: session, options: state, policy: UploadRun.impatient)
            printError(UploadRun.describe(summary))
            if summary.remaining > 0 { throw ExitCode(UploadRun.recordsRemainStatus) }
        }
    }

    struct Glucose: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Blood glucose (a diabetes record).")
        @Argument(help: ArgumentHelp("The value as the meter shows it.", valueName: "value")) var value: Double
        @Option(help: ArgumentHelp("mg/dL or mmol (the meter's unit; default mg/dL).", valueName: "unit")) var unit = "mg/dL"
        @Option(help: ArgumentHelp("Relation to a meal: before, after, fasting or random.", valueName: "meal")) var meal: String?
        @OptionGroup var entry: EntryOptions

        mutating func validate() throws {
            guard GlucoseUnit(parsing: unit) != nil else { throw ValidationError("--unit \(unit): use mg/dL or mmol") }
            if let meal, MealRelationship(rawValue: meal) == nil { throw ValidationError("--meal \(meal): use before, after, fasting or random") }
        }

        func run() async throws {
            let unit = GlucoseUnit(parsing: unit)!
            let meal = meal.flatMap(MealRelationship.init(rawValue:))
            try await entry.submit({ header throws(RecordValidationError) in
                .diabetes(try DiabetesRecord(header: header, bloodGlucose: value, unit: unit, relationshipToMeal: meal))
            }, describing: "\(unit.format(value)) \(unit.symbol)")
        }
    }

    struct BloodPressure: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "blood-pressure", abstract: "Blood pressure SYS/DIA in mmHg, and pulse (a biometrics record).", aliases: ["bp"])
        @Argument(help: ArgumentHelp("Systolic/diastolic, e.g. 128/82.", valueName: "sys/dia")) var pressure: String
        @Option(help: ArgumentHelp("Pulse, beats per minute.", valueName: "bpm")) var pulse: Double?
        @OptionGroup var entry: EntryOptions

        var parsed: (Double, Double)? {
            let parts = pressure.split(separator: "/").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        }

        mutating func validate() throws {
            guard let (sys, dia) = parsed else { throw ValidationError("\(pressure) is not SYS/DIA, e.g. 128/82") }
            guard sys > dia else { throw ValidationError("systolic \(sys) must be above diastolic \(dia)") }
        }

        func run() async throws {
            let (sys, dia) = parsed!
            try await entry.submit({ header throws(RecordValidationError) in
                .biometrics(try BiometricsRecord(header: header, systolic: sys, diastolic: dia, restingHeartRate: pulse))
            }, describing: pressure + (pulse.map { " pulse \(DecimalRounding.shortText($0))" } ?? ""))
        }
    }

    struct Weight: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Body weight (a weight record).")
        @Argument(help: ArgumentHelp("The weight.", valueName: "value")) var value: Double
        @Option(help: ArgumentHelp("kg, lb or st (default kg).", valueName: "unit")) var unit = "kg"
        @OptionGroup var entry: EntryOptions

        mutating func validate() throws {
            guard WeightUnit(parsing: unit) != nil else { throw ValidationError("--unit \(unit): use kg, lb or st") }
        }

        func run() async throws {
            let unit = WeightUnit(parsing: unit)!
            try await entry.submit({ header throws(RecordValidationError) in
                .weight(try WeightRecord(header: header, weight: value, unit: unit))
            }, describing: "\(DecimalRounding.shortText(value)) \(unit.symbol)")
        }
    }

    struct Temperature: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Body temperature (a biometrics record).")
        @Argument(help: ArgumentHelp("The temperature.", valueName: "value")) var value: Double
        @Option(help: ArgumentHelp("C or F (default C).", valueName: "unit")) var unit = "C"
        @OptionGroup var entry: EntryOptions

        mutating func validate() throws {
            guard TemperatureUnit(parsing: unit) != nil else { throw ValidationError("--unit \(unit): use C or F") }
        }

        func run() async throws {
            let unit = TemperatureUnit(parsing: unit)!
            try await entry.submit({ header throws(RecordValidationError) in
                .biometrics(try BiometricsRecord(header: header, temperature: value, temperatureUnit: unit))
            }, describing: "\(DecimalRounding.shortText(value)) \(unit.symbol)")
        }
    }

    struct SpO2: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "spo2", abstract: "Oxygen saturation in %, and pulse (a biometrics record).")
        @Argument(help: ArgumentHelp("SpO2 in %.", valueName: "percent")) var value: Double
        @Option(help: ArgumentHelp("Pulse, beats per minute.", valueName: "bpm")) var pulse: Double?
        @OptionGroup var entry: EntryOptions

        func run() async throws {
            try await entry.submit({ header throws(RecordValidationError) in
                .biometrics(try BiometricsRecord(header: header, restingHeartRate: pulse, spo2: value))
            }, describing: "\(DecimalRounding.shortText(value))%" + (pulse.map { " pulse \(DecimalRounding.shortText($0))" } ?? ""))
        }
    }
}
