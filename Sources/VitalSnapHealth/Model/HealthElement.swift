/// One sample of the export (`<Record>`): a quantity with its unit, or a category with its value's name.
public struct HealthSample: Equatable, Sendable {
    public var type: String
    public var unit: String?
    public var value: String?
    public var sourceName: String
    public var device: String?
    public var startDate: HealthDate
    public var endDate: HealthDate
    /// When it was saved to HealthKit: a sample synced late has an old start and a new creation date.
    public var creationDate: HealthDate?
    /// `MetadataEntry` children, in order.
    public var metadata: [HealthMetadata]

    public func metadata(_ key: String) -> String? { metadata.first { $0.key == key }?.value }
}

public struct HealthMetadata: Equatable, Sendable {
    public var key: String
    public var value: String
}

/// `<Correlation>`: samples that belong together (a blood pressure's systolic and diastolic; a food's nutrients).
public struct HealthCorrelation: Equatable, Sendable {
    public var type: String
    public var sourceName: String
    public var device: String?
    public var startDate: HealthDate
    public var endDate: HealthDate
    public var creationDate: HealthDate?
    public var samples: [HealthSample]
    public var metadata: [HealthMetadata]
}

/// `<Workout>`, with its totals from the old attributes or the modern `WorkoutStatistics` children.
public struct HealthWorkout: Equatable, Sendable {
    public struct Statistic: Equatable, Sendable {
        public var type: String
        public var sum: Double?
        public var unit: String?
    }

    public var activityType: String
    public var duration: Double?
    public var durationUnit: String?
    public var totalDistance: Double?
    public var totalDistanceUnit: String?
    public var totalEnergyBurned: Double?
    public var totalEnergyBurnedUnit: String?
    public var sourceName: String
    public var device: String?
    public var startDate: HealthDate
    public var endDate: HealthDate
    public var creationDate: HealthDate?
    public var statistics: [Statistic]
    public var metadata: [HealthMetadata]
}

/// What the reader hands on, one top-level element at a time.
public enum HealthElement: Equatable, Sendable {
    case sample(HealthSample)
    case correlation(HealthCorrelation)
    case workout(HealthWorkout)
    /// An element whose required parts are missing or unreadable (a date that does not parse): counted.
    case unreadable(element: String, reason: String)
}
