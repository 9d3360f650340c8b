import VitalSnapImaging

/// What the reader saw in the last orientation it read (for `vitalsnap inspect`, tests and traces): the lines
/// located, what reading each gave, and, where the reader's configuration asks for them, the rectified crop of
/// each line kept.
public struct ReadTrace: Sendable {
    /// Every line the locator found, before reading.
    public internal(set) var located: [TextLine] = []
    /// One entry per located line looked at: skipped inside a read line, or what reading it gave.
    public internal(set) var entries: [Entry] = []
    /// The rectified crop of each line the read kept, in its order (`DisplayReader.Configuration.keepsRectifiedLines`).
    public internal(set) var rectified: [RectifiedLine] = []

    public init() {}

    /// The entries as text, one a line.
    public var log: [String] { entries.map(\.description) }

    /// One located line looked at.
    public struct Entry: Sendable, CustomStringConvertible {
        public var digitHeight: Double
        public var box: PixelRect
        /// What reading it gave; nil for a line skipped inside a line already read.
        public var read: LineTranscript?

        public var description: String {
            guard let read else { return "h=\(Int(digitHeight)) \(box): inside a read line" }
            return "h=\(Int(digitHeight)) \(box) -> '\(String(read.characters.map(\.character)))' gap=\(read.hasGap)"
        }
    }

    mutating func startLines() {
        entries.removeAll(keepingCapacity: true)
        rectified.removeAll(keepingCapacity: true)
    }

    mutating func log(_ line: TextLine, read: LineTranscript?) {
        entries.append(Entry(digitHeight: line.digitHeight, box: line.boundingBox, read: read))
    }
}
