/// The drawing style of a display's seven-segment digits. Lengths are fractions of the digit height, so one
/// style serves the big reading and the small clock of the same display.
public struct SegmentStyle: Sendable, Hashable {
    public enum Ends: String, Sendable, Hashable {
        /// Pointed ends that meet at 45 degrees: the classic LCD look.
        case hexagon
        /// Square-ended bars: LED displays and some cheap LCDs.
        case rectangle
    }

    /// Segment thickness.
    public var thickness: Double
    /// Clear space between neighbouring segments (what separates b from a and g).
    public var gap: Double
    /// Italic shear: how far the top moves right relative to the bottom (0 is upright; meters use 0...0.2).
    public var slant: Double
    public var ends: Ends
    /// Widest digit width over its height; narrower when the cell is narrow.
    public var widthRatio: Double

    public init(thickness: Double, gap: Double, slant: Double, ends: Ends, widthRatio: Double = 0.56) {
        self.thickness = thickness
        self.gap = gap
        self.slant = slant
        self.ends = ends
        self.widthRatio = widthRatio
    }
}
