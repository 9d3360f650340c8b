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
    private var startLine = 0

    func takeCompleted() -> [HealthElement] {
        defer { completed.removeAll(keepingCapacity: true) }
        return completed
    }

    static func equal(_ a: UnsafePointer<CChar>, _ b: StaticString) -> Bool {
        strcmp(a, UnsafeRawPointer(b.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
    }

    private static let workoutAttributes: [StaticString] = [
        "workoutActivityType", "duration", "durationUnit", "totalDistance", "totalDistanceUnit", "totalEnergyBurned",
        "totalEnergyBurnedUnit",
    ]

    static func attributes(_ list: UnsafeBufferPointer<hx_attribute>, workout: Bool = false) -> Attributes {
        var result = Attributes()
        for attribute in list {
            guard let name = attribute.name, let value = attribute.value else { continue }
            if equal(name, "type") {
                result.type = String(cString: value)
            } else if equal(name, "unit") {
                result.unit = String(cString: value)
            } else if equal(name, "value") {
                result.value = String(cString: value)
            } else if equal(name, "sourceName") {
                result.sourceName = String(cString: value)
            } else if equal(name, "device") {
                result.device = String(cString: value)
            } else if equal(name, "startDate") {
                result.startDate = HealthDate(parsing: value)
                if result.startDate == nil { result.startText = String(cString: value) }
            } else if equal(name, "endDate") {
                result.endDate = HealthDate(parsing: value)
            } else if equal(name, "creationDate") {
                result.creationDate = HealthDate(parsing: value)
            } else if workout, let key = workoutAttributes.first(where: { equal(name, $0) }) {
                result.workout[key.description] = String(cString: value)
            }
        }
        return result
    }

    static func metadata(_ list: UnsafeBufferPointer<hx_attribute>) -> HealthMetadata? {
        var key: String?, value: String?
        for attribute in list {
            guard let name = attribute.name, let text = attribute.value else { continue }
            if equal(name, "key") { key = String(cString: text) } else if equal(name, "value") { value = String(cString: text) }
        }
        return key.map { HealthMetadata(key: $0, value: value ?? "") }
    }

    func start(depth: Int, name: UnsafePointer<CChar>, attributes list: UnsafeBufferPointer<hx_attribute>) {
        switch depth {
        case 1:
            if Self.equal(name, "Record") {
                current = .record(Self.attributes(list), [])
            } else if Self.equal(name, "Correlation") {
                current = .correlation(Self.attributes(list), [], [], nested: nil)
            } else if Self.equal(name, "Workout") {
                current = .workout(Self.attributes(list, workout: true), [], [])
            } else {
                current = .other
            }
        case 2:
            switch current {
            case .record(let attributes, var metadata):
                if Self.equal(name, "MetadataEntry"), let entry = Self.metadata(list) { metadata.append(entry) }
                current = .record(attributes, metadata)
            case .correlation(let attributes, let samples, var metadata, _):
                if Self.equal(name, "Record") {
                    current = .correlation(attributes, samples, metadata, nested: (Self.attributes(list), []))
                } else {
                    if Self.equal(name, "MetadataEntry"), let entry = Self.metadata(list) { metadata.append(entry) }
                    current = .correlation(attributes, samples, metadata, nested: nil)
                }
            case .workout(let attributes, var statistics, var metadata):
                if Self.equal(name, "WorkoutStatistics") {
                    let parts = Self.attributes(list)
                    var sum: Double?
                    for attribute in list where attribute.name.map({ Self.equal($0, "sum") }) == true {
                        sum = attribute.value.flatMap { Double(String(cString: $0)) }
                    }
                    statistics.append(HealthWorkout.Statistic(type: parts.type ?? "", sum: sum, unit: parts.unit))
                } else if Self.equal(name, "MetadataEntry"), let entry = Self.metadata(list) {
                    metadata.append(entry)
                }
                current = .workout(attributes, statistics, metadata)
            default:
                break
            }
        case 3:
            if case .correlation(let attributes, let samples, let metadata, let nested?) = current, Self.equal(name, "MetadataEntry"),
                let entry = Self.metadata(list)
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
            if let element = finish() { completed.append(element) }
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
