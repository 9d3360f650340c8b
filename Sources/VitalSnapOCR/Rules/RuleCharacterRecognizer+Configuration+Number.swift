extension RuleCharacterRecognizer.Configuration {
    /// Which characters belong to the number: from the detected candidates out along the pitch, what lies
    /// beside it that may be one of its digits, and how much stray ink surrounds it.
    public struct Number: Sendable {
        /// A character is clear when more sure than this (a confidence 0...1), aligned and readable. First version.
        public var clearConfidence = 0.5
        /// The pitch measured between the number's characters is at least this many typical widths. First version.
        public var minimumPitch = 0.8
        /// A character extends the number when its right edge is within this many pitches of where the next
        /// cell's would be... First version.
        public var cellOffset = 0.35
        /// ...or, for a leading minus (which may sit closer than a full cell), within this many. First version.
        public var minusOffset = 0.6
        /// With no candidates to go by (a line from a row profile) the number is the longest run of clear
        /// characters with gaps of at most this many typical widths. 9f63fb2.
        public var runMaximumGap = 1.2

        /// Something of character size that was not taken into the number, aligned with it and within this many
        /// pitches of it, may be one of its digits: the reading is doubtful (a `1` lost at the front turns 147
        /// into 47). 9f63fb2.
        public var suspiciousGap = 1.5
        /// A bar out of line, at most this many typical widths wide... 791ff56 (bp-fields-binarized wrong
        /// 11 -> 7, correct 77 -> 76; electricity-meter wrong 21 -> 20; fuel-pump correct 107 -> 104).
        public var barMaximumWidth = 0.5
        /// ...sharing at least this share (0...1) of its neighbour's rows... 791ff56.
        public var barMinimumRows = 0.8
        /// ...within this many pitches of it, may be a leading `1` (124 read as 24). 791ff56.
        public var barMaximumGap = 0.6
        /// A cell out of line whose top is within this share (0...1) of its neighbour's height of the neighbour's
        /// top... 80219ad (removes 4 wrong electricity-meter readings, no correct one lost).
        public var mergedTopOffset = 0.2
        /// ...at least this many times as tall as the neighbour... 80219ad.
        public var mergedMinimumHeight = 1.1
        /// ...at least this many typical widths wide... 80219ad.
        public var mergedMinimumWidth = 0.6
        /// ...and within this many pitches of it, is a digit merged with a label under it (a 9 joined to "kWh").
        /// 80219ad.
        public var mergedMaximumGap = 0.5

        /// Ink covering more than this share (0...1) of the band around the characters means the polarity is the
        /// wrong way round (the gaps between dark digits read as light strokes)... 8b30253 (as half the band).
        public var maximumInkShare = 0.5
        /// ...or more than this share where at least half of the characters have `boldSegments` lit (a bold 88
        /// comes near half on its own). 154ea0a (see `NextCell.gaugeBars` for what it measured).
        public var boldInkShare = 0.6
        /// Characters with at least this many segments lit count towards `boldInkShare`. 154ea0a.
        public var boldSegments = 5

        public init() {}
    }
}
