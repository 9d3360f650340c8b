extension RuleCharacterRecognizer.Configuration {
    /// The display's pitch: re-reading an unreadable character in the cell the pitch predicts, and checking
    /// that the characters read keep one pitch and one width.
    public struct Pitch: Sendable {
        /// Characters at least this sure (a confidence 0...1) are clear: the digits the cells are learnt from,
        /// the neighbours the pitch is measured between, and the re-readings taken. e651f51 ("re-read unclear
        /// digits in the cell the pitch predicts").
        public var clearConfidence = 0.5
        /// The cells are learnt from clear digits at least this wide (digit heights), not from a `1`. e651f51.
        public var clearDigitMinimumWidth = 0.3
        /// The pitch is the median step between clear neighbours of at least this many cell widths... e651f51.
        public var minimumStep = 0.9
        /// ...and at most this many. e651f51.
        public var maximumStep: Double = 2
        /// Where no pitch can be measured, it is taken as this many typical widths: in the trimming to the
        /// number (first version) and in the look at the cell before and after it (15c0eab).
        public var fallbackPitch = 1.25

        /// The characters of one number of one display step from one to the next by at least this ratio to
        /// their median step... 15c0eab ("regular pitch and widths ... decide whether a number is whole").
        public var regularMinimumStep = 0.7
        /// ...and at most this ratio. 15c0eab.
        public var regularMaximumStep = 1.35
        /// Their widths (all but `1`s) are at least this ratio to the median width... 15c0eab.
        public var regularMinimumWidth = 0.7
        /// ...and at most this ratio. 15c0eab.
        public var regularMaximumWidth = 1.35

        public init() {}
    }
}
