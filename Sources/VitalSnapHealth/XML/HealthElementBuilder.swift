import CHealthXML
import Foundation

/// Builds the export's top-level elements from the parser's start and end events: a `Record` with its
/// `MetadataEntry` children, a `Correlation` with its records, a `Workout` with its statistics.
final class HealthElementBuilder {
    private enum Current {
        case none
        case record(Attributes, [HealthMetadata])
        case correlation(Attributes, [HealthSample], [HealthMetadata], nested: (Attributes, [HealthMetadata])?)
        case workout(Attributes, [HealthWorkout.Statistic], [HealthMetadata])
        /// A top-level element this reader passes over.
        case other
    }

    /// The attributes of a sample-like element this reader uses, as text.
    struct Attributes {
        var type: String?
        var unit: String?
        var value: String?
        var sourceName: String?
        var device: String?
        var startDate: HealthDate?
        var endDate: HealthDate?
        var creationDate: HealthDate?
        var startText: String?
        var workout: [String: String] = [:]
    }

    private var current = Current.none
    private var completed: [HealthElement] = []
    /// Elements completed since the start, and how many of the next ones to drop (see `restart`).
    private(set) var completedCount = 0
    private var skipping = 0
    /// The values that repeat across elements, each made a String once.
    private var types = RecentStrings(), units = RecentStrings(), sources = RecentStrings(), devices = RecentStrings()
    private var keys = RecentStrings()

    func takeCompleted() -> [HealthElement] {
        defer { completed.removeAll(keepingCapacity: true) }
        return completed
    }

    /// Starts again from the document's beginning (another parser reads it again), dropping the first
    /// `skipping` elements: they were completed before.
    func restart(skipping count: Int) {
        current = .none
        skipping = count
        completedCount = count
    }

    typealias Bytes = UnsafeRawBufferPointer

    static func bytes(_ start: UnsafePointer<CChar>?, _ count: Int32) -> Bytes {
        Bytes(start: start, count: start == nil ? 0 : Int(count))
    }

    static func equal(_ bytes: Bytes, _ name: StaticString) -> Bool {
        bytes.count == name.utf8CodeUnitCount && (bytes.count == 0 || memcmp(bytes.baseAddress!, name.utf8Start, bytes.count) == 0)
    }

    private static let workoutAttributes: [StaticString] = [
        "workoutActivityType", "duration", "durationUnit", "totalDistance", "totalDistanceUnit", "totalEnergyBurned",
        "totalEnergyBurnedUnit",
    ]

    func attributes(_ list: UnsafeBufferPointer<hx_attribute>, workout: Bool = false) -> Attributes {
        var result = Attributes()
        for attribute in list {
            let name = Self.bytes(attribute.name, attribute.name_length)
            let value = Self.bytes(attribute.value, attribute.value_length)
            if Self.equal(name, "type") {
                result.type = types.string(value)
            } else if Self.equal(name, "unit") {
                result.unit = units.string(value)
            } else if Self.equal(name, "value") {
                result.value = String(decoding: value, as: UTF8.self)
            } else if Self.equal(name, "sourceName") {
                result.sourceName = sources.string(value)
            } else if Self.equal(name, "device") {
                result.device = devices.string(value)
            } else if Self.equal(name, "startDate") {
                result.startDate = HealthDate(parsing: value)
                if result.startDate == nil { result.startText = String(decoding: value, as: UTF8.self) }
            } else if Self.equal(name, "endDate") {
                result.endDate = HealthDate(parsing: value)
            } else if Self.equal(name, "creationDate") {
                result.creationDate = HealthDate(parsing: value)
            } else if workout, let key = Self.workoutAttributes.first(where: { Self.equal(name, $0) }) {
                result.workout[key.description] = String(decoding: value, as: UTF8.self)
            }
        }
        return result
    }

    func metadata(_ list: UnsafeBufferPointer<hx_attribute>) -> HealthMetadata? {
        var key: String?, value: String?
        for attribute in list {
            let name = Self.bytes(attribute.name, attribute.name_length)
            let text = Self.bytes(attribute.value, attribute.value_length)
            if Self.equal(name, "key") { key = keys.string(text) } else if Self.equal(name, "value") { value = String(decoding: text, as: UTF8.self) }
        }
        return key.map { HealthMetadata(key: $0, value: value ?? "") }
    }

    func start(depth: Int, name: Bytes, attributes list: UnsafeBufferPointer<hx_attribute>) {
        switch depth {
        case 1:
            if Self.equal(name, "Record") {
                current = .record(self.attributes(list), [])
            } else if Self.equal(name, "Correlation") {
                current = .correlation(self.attributes(list), [], [], nested: nil)
            } else if Self.equal(name, "Workout") {
                current = .workout(self.attributes(list, workout: true), [], [])
            } else {
                current = .other
            }
        case 2:
            switch current {
            case .record(let attributes, var metadata):
                if Self.equal(name, "MetadataEntry"), let entry = self.metadata(list) { metadata.append(entry) }
                current = .record(attributes, metadata)
            case .correlation(let attributes, let samples, var metadata, _):
                if Self.equal(name, "Record") {
                    current = .correlation(attributes, samples, metadata, nested: (self.attributes(list), []))
                } else {
                    if Self.equal(name, "MetadataEntry"), let entry = self.metadata(list) { metadata.append(entry) }
                    current = .correlation(attributes, samples, metadata, nested: nil)
                }
            case .workout(let attributes, var statistics, var metadata):
                if Self.equal(name, "WorkoutStatistics") {
                    let parts = self.attributes(list)
                    var sum: Double?
                    for attribute in list where Self.equal(Self.bytes(attribute.name, attribute.name_length), "sum") {
                        sum = Double(String(decoding: Self.bytes(attribute.value, attribute.value_length), as: UTF8.self))
                    }
                    statistics.append(HealthWorkout.Statistic(type: parts.type ?? "", sum: sum, unit: parts.unit))
                } else if Self.equal(name, "MetadataEntry"), let entry = self.metadata(list) {
                    metadata.append(entry)
                }
                current = .workout(attributes, statistics, metadata)
            default:
                break
            }
        case 3:
            if case .correlation(let attributes, let samples, let metadata, let nested?) = current, Self.equal(name, "MetadataEntry"),
                let entry = self.metadata(list)
            {
                current = .correlation(attributes, samples, metadata, nested: (nested.0, nested.1 + [entry]))
            }
        default:
            break
        }
    }

    func end(depth: Int) {
        switch depth {
        case 1:
            if let element = finish() {
                if skipping > 0 {
                    skipping -= 1
                } else {
                    completed.append(element)
                    completedCount += 1
                }
            }
            current = .none
        case 2:
            if case .correlation(let attributes, var samples, let metadata, let nested?) = current {
                if case .success(let sample) = Self.sample(nested.0, nested.1) { samples.append(sample) }
                current = .correlation(attributes, samples, metadata, nested: nil)
            }
        default:
            break
        }
    }

    /// Why an element cannot be used.
    struct Unreadable: Error {
        var reason: String
    }

    static func sample(_ attributes: Attributes, _ metadata: [HealthMetadata]) -> Result<HealthSample, Unreadable> {
        guard let type = attributes.type else { return .failure(Unreadable(reason: "no type")) }
        guard let start = attributes.startDate else {
            return .failure(Unreadable(reason: "startDate \(attributes.startText ?? "missing") is not a date"))
        }
        return .success(HealthSample(
            type: type, unit: attributes.unit, value: attributes.value, sourceName: attributes.sourceName ?? "",
            device: attributes.device, startDate: start, endDate: attributes.endDate ?? start,
            creationDate: attributes.creationDate, metadata: metadata))
    }

    private func finish() -> HealthElement? {
        switch current {
        case .none, .other:
            return nil
        case .record(let attributes, let metadata):
            switch Self.sample(attributes, metadata) {
            case .success(let sample): return .sample(sample)
            case .failure(let unreadable): return .unreadable(element: "Record", reason: unreadable.reason)
            }
        case .correlation(let attributes, let samples, let metadata, _):
            guard let type = attributes.type, let start = attributes.startDate else {
                return .unreadable(element: "Correlation", reason: "no type or start date")
            }
            return .correlation(HealthCorrelation(
                type: type, sourceName: attributes.sourceName ?? "", device: attributes.device, startDate: start,
                endDate: attributes.endDate ?? start, creationDate: attributes.creationDate, samples: samples, metadata: metadata))
        case .workout(let attributes, let statistics, let metadata):
            guard let activity = attributes.workout["workoutActivityType"], let start = attributes.startDate else {
                return .unreadable(element: "Workout", reason: "no activity type or start date")
            }
            let number = { (key: String) in attributes.workout[key].flatMap(Double.init) }
            return .workout(HealthWorkout(
                activityType: activity, duration: number("duration"), durationUnit: attributes.workout["durationUnit"],
                totalDistance: number("totalDistance"), totalDistanceUnit: attributes.workout["totalDistanceUnit"],
                totalEnergyBurned: number("totalEnergyBurned"), totalEnergyBurnedUnit: attributes.workout["totalEnergyBurnedUnit"],
                sourceName: attributes.sourceName ?? "", device: attributes.device, startDate: start,
                endDate: attributes.endDate ?? start, creationDate: attributes.creationDate, statistics: statistics,
                metadata: metadata))
        }
    }
}
