/// Whether VitalSnap can read a peripheral's measurements itself, and why not where it cannot.
public enum BLEReadSupport: Equatable, Sendable, CustomStringConvertible {
    case supported
    case unsupported(Reason)

    public enum Reason: Equatable, Sendable, CustomStringConvertible {
        /// The maker's protocol is not public and reading it needs the maker's licensed kit and key.
        case licensedKit
        /// A vendor characteristic (or none listed) whose format no public source describes.
        case vendorProtocolNotPublic

        public var description: String {
            switch self {
            case .licensedKit: "protocol not public: needs the vendor's licensed kit and key"
            case .vendorProtocolNotPublic: "vendor protocol not public"
            }
        }
    }

    public var isSupported: Bool { self == .supported }

    public var description: String {
        switch self {
        case .supported: "yes"
        case .unsupported(let reason): "no (\(reason))"
        }
    }
}

extension BLEPeripheral {
    /// The SIG measurement characteristics the record mapper reads (glucose, blood pressure, temperature, weight,
    /// pulse oximetry spot-check and continuous, heart rate).
    public static let standardMeasurementCharacteristics: Set<String> = Set(
        [
            GlucoseMeasurement.uuid, BloodPressureMeasurement.uuid, TemperatureMeasurement.uuid, WeightMeasurement.uuid,
            PLXSpotCheckMeasurement.uuid, PLXContinuousMeasurement.uuid, HeartRateMeasurement.uuid,
        ].map(BLEUUID.short))

    /// Readable when its characteristic is a standard one or the Nonin 3230's frame, and it needs no licensed kit.
    public var readSupport: BLEReadSupport {
        if requiresLicensedKit { return .unsupported(.licensedKit) }
        guard let characteristic else { return .unsupported(.vendorProtocolNotPublic) }
        let uuid = BLEUUID.normalized(characteristic)
        if Self.standardMeasurementCharacteristics.contains(uuid) || uuid == NoninOximetryFrame.characteristicUUID {
            return .supported
        }
        return .unsupported(.vendorProtocolNotPublic)
    }
}
