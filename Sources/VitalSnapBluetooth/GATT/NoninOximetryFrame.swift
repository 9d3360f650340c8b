/// The Nonin 3230 oximeter's own measurement frame (catalog id 13), notified on a vendor characteristic of a vendor
/// service, about once a second while a finger is in the clip. Ten bytes, multi-byte fields big-endian (unlike the
/// SIG characteristics): length (10), status, battery, pulse amplitude index (2), counter (2), SpO2 in percent,
/// pulse rate in beats per minute (2). The layout is the one a public emulator of this device reproduces
/// (../shared/reference/validic-sdk-facts.md, 1b).
public struct NoninOximetryFrame: Equatable, Sendable {
    /// The Nonin oximetry service (128-bit vendor UUID), advertised and read.
    public static let serviceUUID = "46A970E0-0D5F-11E2-8B5E-0002A5D5C51B"
    /// The measurement characteristic (128-bit vendor UUID).
    public static let characteristicUUID = "0AAD7EA0-0D60-11E2-8E3C-0002A5D5C51B"
    static let name = "Nonin 3230 oximetry frame"

    /// Bytes of a frame, which its first byte repeats.
    public static let frameLength = 10
    /// The SpO2 byte's value when the oximeter has no reading.
    public static let missingSpO2 = 127
    /// The pulse rate's value when the oximeter has no reading.
    public static let missingPulseRate = 511

    /// The status byte as sent (its bits are the vendor's and not interpreted here).
    public var status: UInt8
    /// The battery byte as sent.
    public var battery: UInt8
    /// The pulse amplitude index as sent (a perfusion measure).
    public var pulseAmplitudeIndex: UInt16
    /// Counts the frames; it wraps.
    public var counter: UInt16
    /// Percent; nil when the oximeter sent "missing" (127).
    public var spo2: Int?
    /// Beats per minute; nil when the oximeter sent "missing" (511).
    public var pulseRate: Int?

    public init(_ bytes: [UInt8]) throws(GATTDecodeError) {
        guard let length = bytes.first else {
            throw .tooShort(characteristic: Self.name, field: "length", needed: 1, available: 0)
        }
        guard Int(length) == Self.frameLength else {
            throw .invalidField(characteristic: Self.name, field: "length", detail: "\(length) is not \(Self.frameLength)")
        }
        guard bytes.count >= Self.frameLength else {
            // What follows the length byte: the frame's other nine bytes.
            throw .tooShort(characteristic: Self.name, field: "frame", needed: Self.frameLength - 1, available: bytes.count - 1)
        }
        func bigEndian(_ at: Int) -> UInt16 { UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) }
        status = bytes[1]
        battery = bytes[2]
        pulseAmplitudeIndex = bigEndian(3)
        counter = bigEndian(5)
        let spo2 = Int(bytes[7]), pulse = Int(bigEndian(8))
        self.spo2 = spo2 == Self.missingSpO2 ? nil : spo2
        self.pulseRate = pulse == Self.missingPulseRate ? nil : pulse
    }
}
