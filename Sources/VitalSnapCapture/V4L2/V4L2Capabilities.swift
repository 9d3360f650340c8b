/// What VIDIOC_QUERYCAP answered.
public struct V4L2Capabilities: Sendable, Equatable {
    /// The V4L2_CAP_* bits VitalSnap looks at (values from linux/videodev2.h; they are kernel ABI).
    public struct Flags: OptionSet, Sendable, Hashable {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let videoCapture = Flags(rawValue: 0x0000_0001)
        public static let videoOutput = Flags(rawValue: 0x0000_0002)
        public static let videoCaptureMultiplanar = Flags(rawValue: 0x0000_1000)
        public static let metadataCapture = Flags(rawValue: 0x0080_0000)
        public static let readWrite = Flags(rawValue: 0x0100_0000)
        public static let streaming = Flags(rawValue: 0x0400_0000)
        /// `deviceCaps` is filled in and describes this device node (the other field covers the whole device).
        public static let deviceCaps = Flags(rawValue: 0x8000_0000)
    }

    public var driver: String
    public var card: String
    public var busInfo: String
    /// The whole physical device (all its nodes).
    public var capabilities: Flags
    /// This node only; meaningful when `capabilities` contains `.deviceCaps`.
    public var deviceCaps: Flags

    public init(driver: String, card: String, busInfo: String = "", capabilities: Flags, deviceCaps: Flags = []) {
        self.driver = driver
        self.card = card
        self.busInfo = busInfo
        self.capabilities = capabilities
        self.deviceCaps = deviceCaps
    }

    /// What the opened node can do: `deviceCaps` when the driver reports it, else `capabilities`.
    public var node: Flags { capabilities.contains(.deviceCaps) ? deviceCaps : capabilities }
}
