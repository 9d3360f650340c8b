/// How long a pairing or read waits for each step. The catalog gives each device its connection and reading
/// timeouts; these are the defaults around them, and the overrides a user (or a test) can give.
public struct BLETimings: Sendable, Equatable {
    /// Replaces the catalog's connection timeout (finding the device and connecting to it), when set.
    public var connectionTimeout: Double?
    /// Replaces the catalog's reading timeout (connected, waiting for a value), when set.
    public var readingTimeout: Double?
    /// After a device that sends values unasked (a cuff, a scale) has sent one, how long a silence ends the
    /// transfer: cuffs send their stored measurements back to back, well within a second of each other.
    public var settle: Double
    /// How long the person has to enter a PIN or passkey during pairing (BlueZ's own agent timeout is 60 s).
    public var pairing: Double

    public static let defaultSettle = 1.0
    public static let defaultPairing = 60.0

    public init(connectionTimeout: Double? = nil, readingTimeout: Double? = nil, settle: Double = defaultSettle, pairing: Double = defaultPairing) {
        self.connectionTimeout = connectionTimeout
        self.readingTimeout = readingTimeout
        self.settle = settle
        self.pairing = pairing
    }

    func connection(for peripheral: BLEPeripheral) -> Double {
        connectionTimeout ?? Double(peripheral.connectionTimeoutSeconds)
    }

    func reading(for peripheral: BLEPeripheral) -> Double {
        readingTimeout ?? Double(peripheral.readingTimeoutSeconds)
    }
}
