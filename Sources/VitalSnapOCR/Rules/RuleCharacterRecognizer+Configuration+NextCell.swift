extension RuleCharacterRecognizer.Configuration {
    /// Ink in the cell just before or just after the number, too faint or broken to have been read: a digit under
    /// a reflection or washed out by glare (a lost leading 2 turns 247 into 47), so the number may be longer.
    /// Brought in by 15c0eab ("ink of digit height in the cell just before or after it ... makes the reading
    /// uncertain").
    public struct NextCell: Sendable {
        /// The cell looked at is the typical width less a margin on each side of the typical width divided by
        /// this (at least 2 pixels), so the neighbours' strokes do not count. 15c0eab.
        public var insetDivisor = 6
        /// Pixels at least this dark (a ratio to the line's lit level) are ink there; faint ghosts of unlit
        /// segments stay below it. 15c0eab.
        public var inkLevel = 0.5
        /// The cell lies on the display only when its background level is within this ratio of the number's own
        /// background level; beyond the display window (bezel, body) there is no cell to worry about. 15c0eab.
        public var backgroundTolerance = 0.2
        /// Ink must cover at least this share (0...1) of the cell. 15c0eab.
        public var minimumInkShare = 0.06
        /// ...and hold a vertical stroke at least this tall (digit heights, the band's height): icons (a
        /// battery, a drop) and flat bars do not. 5b3081b (it replaced an ink height of 0.4 from 15c0eab).
        public var minimumStroke = 0.35
        /// ...and reach down at least this far from the band's top (digit heights): a unit symbol (°C, %) sits
        /// beside the top of the digits only. 9a8e701 (Samples thermometer-t1 one more read right, photo folders
        /// unchanged; a first try on the ink's height alone lost an electricity-meter tenths digit).
        public var minimumReachDown = 0.6
        /// A vertical line through a digit crosses at most three bars (a, g, d); one crossing this many is a
        /// signal-strength or battery gauge, not a digit. 154ea0a, with `Number.boldInkShare` (together: Samples
        /// oximeter-o1 5 -> 8 of 18 right; fuel-pump one gained, one lost; bp-fields +1; no new wrong).
        public var gaugeBars = 4

        public init() {}
    }
}
