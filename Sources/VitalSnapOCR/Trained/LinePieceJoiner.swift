import Foundation

/// Joins the pieces of one line that a dense detector gives apart. The detector marks the core of each line
/// cell by cell; where a line has a wide gap between two characters (a `1` sits at the right of its cell, a
/// thousands gap, a narrow decimal point) the marked cells can break into two groups, and each group alone
/// reads as a shorter number (`118` as `1` and `18`). Two pieces are one line when they run the same way, at
/// the same height, on the same baseline, with no more than a character's gap between them: the text-line
/// linking step of scene-text detectors, on the detector's own geometry. Two pieces that are each a number of
/// their own (a colour monitor's SYS and DIA side by side, an oximeter's SpO2 and pulse) sit a character's gap
/// apart too; they are joined only where almost touching (joined, `159 42` read as `15942`, which no field can
/// take apart again).
public struct LinePieceJoiner: Sendable {
    public struct Configuration: Sendable {
        /// Largest difference of reading direction between two pieces of one line (radians, about 12 degrees).
        public var maximumAngleDifference = 0.21
        /// Largest ratio of the taller piece's digit height to the shorter's.
        public var maximumHeightRatio = 1.35
        /// Largest offset across the line between the pieces' centre lines, in digit heights.
        public var maximumAcrossOffset = 0.35
        /// Largest gap along the line between one piece's end and the next one's start, in digit heights
        /// (a `1` leaves about 0.6 of blank cell before it; two separate values sit further apart).
        public var maximumGap = 0.8
        /// A piece at least this many digit heights long holds two characters or more (a digit is about 0.6
        /// digit heights wide): a number of its own rather than a `1` broken off a number.
        public var numberLength = 1.0
        /// Two such pieces are joined only across a gap at most this many digit heights (chosen on the generated
        /// families, seeds 900001 and 900002: 0.25 read 9 more BP and oximeter scenes than joining up to
        /// `maximumGap`, and one fewer; 0.4 read 2 fewer scenes than 0.25, a glucose meter and an oximeter).
        public var maximumGapBetweenNumbers = 0.25
        public init() {}
    }

    public var configuration: Configuration

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Joins pieces in place until no two can be joined; a joined line keeps the first piece's role.
    public func join(_ lines: inout [TextLine]) {
        var joined = true
        while joined {
            joined = false
            search: for i in lines.indices {
                for j in lines.indices where j > i {
                    if let union = self.union(lines[i], lines[j]) {
                        lines[i] = union
                        lines.remove(at: j)
                        joined = true
                        break search
                    }
                }
            }
        }
    }

    /// The one line both pieces are part of, or nil when they are two lines.
    public func union(_ a: TextLine, _ b: TextLine) -> TextLine? {
        guard a.role == b.role else { return nil }
        var turn = abs(a.angle - b.angle).truncatingRemainder(dividingBy: 2 * Double.pi)
        if turn > Double.pi { turn = 2 * Double.pi - turn }
        guard turn <= configuration.maximumAngleDifference else { return nil }
        let tall = max(a.digitHeight, b.digitHeight), short = min(a.digitHeight, b.digitHeight)
        guard short > 0, tall / short <= configuration.maximumHeightRatio else { return nil }
        // The longer piece's direction is the better estimate; both pieces are measured along it.
        let axis = a.length >= b.length ? a.angle : b.angle
        let ex = cos(axis), ey = sin(axis)
        func along(_ l: TextLine) -> Double { l.centerX * ex + l.centerY * ey }
        func across(_ l: TextLine) -> Double { -l.centerX * ey + l.centerY * ex }
        let height = (a.digitHeight * a.length + b.digitHeight * b.length) / (a.length + b.length)
        guard abs(across(a) - across(b)) <= configuration.maximumAcrossOffset * height else { return nil }
        let aStart = along(a) - a.length / 2, aEnd = along(a) + a.length / 2
        let bStart = along(b) - b.length / 2, bEnd = along(b) + b.length / 2
        let gap = max(aStart, bStart) - min(aEnd, bEnd)
        guard gap <= configuration.maximumGap * height else { return nil }
        let twoNumbers = min(a.length, b.length) >= configuration.numberLength * height
        guard !twoNumbers || gap <= configuration.maximumGapBetweenNumbers * height else { return nil }
        let start = min(aStart, bStart), end = max(aEnd, bEnd)
        let mid = (start + end) / 2
        let v = (across(a) * a.length + across(b) * b.length) / (a.length + b.length)
        var line = a
        line.centerX = mid * ex - v * ey
        line.centerY = mid * ey + v * ex
        line.angle = axis
        line.length = end - start
        line.digitHeight = height
        return line
    }
}
