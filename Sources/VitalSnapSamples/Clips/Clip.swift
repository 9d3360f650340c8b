import VitalSnapImaging

/// A short sequence of camera frames of one device, for live-capture tests.
public struct Clip: Sendable {
    public struct Frame: Sendable {
        public var image: GrayImage
        /// What the display shows in this frame.
        public var shown: String
        /// What a correct reader reports for this frame alone: `shown`, or `?` while the view is unusable.
        public var expectedReading: String
        public var displayQuad: QuadCorners
        public var notes: [String]
    }

    /// Folder name (`settle-glucose-g1`).
    public var name: String
    public var design: MeterDesign
    public var seed: UInt64
    /// One line on what the clip is for.
    public var summary: String
    public var frames: [Frame]
}
