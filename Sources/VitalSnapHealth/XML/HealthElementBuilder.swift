import CHealthXML
import Foundation

/// Builds the export's top-level elements from the parser's start and end events, replayed from the tape the
/// reader recorded (`HealthEvents`): a `Record` with its `MetadataEntry` children, a `Correlation` with its
/// records, a `Workout` with its statistics. An element whose end is in the next stretch of events is finished
/// when that stretch is built.
final class HealthElementBuilder {
    /// The top-level element being built.
    private enum Current {
        case none, record, correlation, workout
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

    // The element being built, kept in place (not in the enum's payloads, whose every change copied its strings).
    private var current = Current.none
    private var attributes = Attributes()
    private var metadata: [HealthMetadata] = []
    /// A correlation's records, and the one being read with its metadata.
    private var samples: [HealthSample] = []
    private var nested: Attributes?
    private var nestedMetadata: [HealthMetadata] = []
    private var statistics: [HealthWorkout.Statistic] = []
    private var completed: [HealthElement] = []
    /// The values that repeat across elements, each made a String once.
    private var types = RecentStrings(known: HealthElementBuilder.knownTypes), units = RecentStrings(), sources = RecentStrings()
    private var devices = RecentStrings(), keys = RecentStrings()

    /// The types VitalSnap reads or knows, each as its literal.
    static let knownTypes: [String: String] = {
        let names = Array(HealthSampleKind.byIdentifier.keys) + HealthSubscriptionSet.allCases.flatMap(\.identifiers)
            + [HealthSampleKind.bloodPressureCorrelation, HealthSubscriptionSet.workoutIdentifier]
        return Dictionary(names.map { ($0, $0) }, uniquingKeysWith: { first, _ in first })
    }()

    /// Builds the elements `events` complete (with the ones before them, if the last stretch ended inside an
    /// element) into `elements`, emptied first; the two arrays swap storage, so neither is allocated again.
    func build(_ events: HealthEvents, into elements: inout [HealthElement]) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        // The tape is this process's own, recorded by `hx_tape_start` and `hx_tape_end`: it always replays.
        _ = events.bytes.withUnsafeBufferPointer { tape in
            hx_tape_replay(tape.baseAddress, tape.count, Self.startCallback, Self.endCallback, context)
        }
        elements.removeAll(keepingCapacity: true)
        swap(&elements, &completed)
    }

    private static let startCallback: hx_start_fn = { opaque, depth, name, nameLength, count, attributes in
        let builder = Unmanaged<HealthElementBuilder>.fromOpaque(opaque!).takeUnretainedValue()
        builder.start(depth: Int(depth), name: bytes(name, nameLength), attributes: UnsafeBufferPointer(start: attributes, count: Int(count)))
    }

    private static let endCallback: hx_end_fn = { opaque, depth in
        Unmanaged<HealthElementBuilder>.fromOpaque(opaque!).takeUnretainedValue().end(depth: Int(depth))
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

    /// Empty arrays, not emptied ones: the element just made shares their storage, and emptying it in place
    /// would allocate a copy for every element.
    private func reset() {
        current = .none
        if !metadata.isEmpty { metadata = [] }
        if !samples.isEmpty { samples = [] }
        nested = nil
        if !nestedMetadata.isEmpty { nestedMetadata = [] }
        if !statistics.isEmpty { statistics = [] }
    }

    private func start(depth: Int, name: Bytes, attributes list: UnsafeBufferPointer<hx_attribute>) {
        switch depth {
        case 1:
            reset()
            if Self.equal(name, "Record") {
                current = .record
                attributes = self.attributes(list)
            } else if Self.equal(name, "Correlation") {
                current = .correlation
                attributes = self.attributes(list)
            } else if Self.equal(name, "Workout") {
                current = .workout
                attributes = self.attributes(list, workout: true)
            } else {
                current = .other
            }
        case 2:
            switch current {
            case .record:
                if Self.equal(name, "MetadataEntry"), let entry = self.metadata(list) { metadata.append(entry) }
            case .correlation:
                if Self.equal(name, "Record") {
                    nested = self.attributes(list)
                    if !nestedMetadata.isEmpty { nestedMetadata = [] }
                } else if Self.equal(name, "MetadataEntry"), let entry = self.metadata(list) {
                    metadata.append(entry)
                }
            case .workout:
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
            case .none, .other:
                break
            }
        case 3:
            if current == .correlation, nested != nil, Self.equal(name, "MetadataEntry"), let entry = self.metadata(list) {
                nestedMetadata.append(entry)
            }
        default:
            break
        }
    }

    private func end(depth: Int) {
        switch depth {
        case 1:
            if let element = finish() { completed.append(element) }
            current = .none
        case 2:
            if current == .correlation, let record = nested {
                if case .success(let sample) = Self.sample(record, nestedMetadata) { samples.append(sample) }
                nested = nil
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
        case .record:
            switch Self.sample(attributes, metadata) {
            case .success(let sample): return .sample(sample)
            case .failure(let unreadable): return .unreadable(element: "Record", reason: unreadable.reason)
            }
        case .correlation:
            guard let type = attributes.type, let start = attributes.startDate else {
                return .unreadable(element: "Correlation", reason: "no type or start date")
            }
            return .correlation(HealthCorrelation(
                type: type, sourceName: attributes.sourceName ?? "", device: attributes.device, startDate: start,
                endDate: attributes.endDate ?? start, creationDate: attributes.creationDate, samples: samples, metadata: metadata))
        case .workout:
            guard let activity = attributes.workout["workoutActivityType"], let start = attributes.startDate else {
                return .unreadable(element: "Workout", reason: "no activity type or start date")
            }
            let workout = attributes.workout
            let number = { (key: String) in workout[key].flatMap(Double.init) }
            return .workout(HealthWorkout(
                activityType: activity, duration: number("duration"), durationUnit: workout["durationUnit"],
                totalDistance: number("totalDistance"), totalDistanceUnit: workout["totalDistanceUnit"],
                totalEnergyBurned: number("totalEnergyBurned"), totalEnergyBurnedUnit: workout["totalEnergyBurnedUnit"],
                sourceName: attributes.sourceName ?? "", device: attributes.device, startDate: start,
                endDate: attributes.endDate ?? start, creationDate: attributes.creationDate, statistics: statistics,
                metadata: metadata))
        }
    }
}
