
/// Why a sample of the export made no record of its own; each is counted in the import's summary.
public enum HealthSkip: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A type VitalSnap does not import (audio exposure, walking speed, ...).
    case unknownType(String)
    /// A systolic or diastolic sample at the top level: the same sample as in its blood pressure correlation.
    case partOfCorrelation
    /// A unit this type is never written in, or no unit.
    case unknownUnit(type: String, unit: String)
    case notANumber(type: String, value: String)
    /// A value the record's own physical limits refuse (a glucose of 90000 mg/dL).
    case absurd(String)
    /// A blood pressure correlation without both of its samples.
    case incompleteBloodPressure
    /// Not subscribed: `health subscribe` chooses what is imported.
    case notSubscribed
    /// Already delivered by an earlier import or observation (older than the type's anchor).
    case alreadyDelivered
    /// Outside the days `health history` was asked for.
    case outsideRange
    /// BMI, body fat, lean mass or height with no body mass from the same source at the same moment: a weight
    /// record needs its weight.
    case noBodyMass

    public var description: String {
        switch self {
        case .unknownType(let type): "not imported: \(type)"
        case .partOfCorrelation: "part of a blood pressure correlation"
        case .unknownUnit(let type, let unit): "\(type) in an unknown unit '\(unit)'"
        case .notANumber(let type, let value): "\(type) value '\(value)' is not a number"
        case .absurd(let why): "refused: \(why)"
        case .incompleteBloodPressure: "blood pressure without both systolic and diastolic"
        case .notSubscribed: "not subscribed"
        case .alreadyDelivered: "delivered before"
        case .outsideRange: "outside the days asked for"
        case .noBodyMass: "body composition without a weight at that moment"
        }
    }

    /// The summary's line for it: one per kind, not per type.
    public var category: String {
        switch self {
        case .unknownType: "types not imported"
        case .partOfCorrelation: "copies of correlated samples"
        case .unknownUnit: "unknown units"
        case .notANumber: "values that are not numbers"
        case .absurd: "values refused as impossible"
        case .incompleteBloodPressure: "incomplete blood pressures"
        case .notSubscribed: "not subscribed"
        case .alreadyDelivered: "delivered before"
        case .outsideRange: "outside the days asked for"
        case .noBodyMass: "body composition without a weight"
        }
    }
}
