import VitalSnapImaging

extension DisplayReader {
    /// What a reader does around its stages: how a file is decoded, the working frame, the placement, selection
    /// and cutting of lines, the glare check, and which second looks a photo refused is given.
    public struct Configuration: Sendable {
        /// JPEGs are decoded at a reduced DCT scale while the image stays at least 1000 pixels on its long side:
        /// digits stay sharp enough and decoding gets several times faster.
        public var decoding = DecodeOptions(minimumLongSide: 1000)
        public var frame = WorkingFrame.Configuration()
        public var placement = LinePlacement.Configuration()
        public var selection = LineSelection.Configuration()
        public var gapSplit = LineGapSplitter.Configuration()
        public var glare = GlareCheck.Configuration()
        public var turnedErrorCode = TurnedErrorCodeCheck.Configuration()
        /// An image smaller than this many pixels on either side shows no lines.
        public var minimumImageSide = 8
        /// Whether a photo is stood upright (the orienter) and given its last look (`TurnCheck`): off for a
        /// camera's frames, which the person holding the device sees the right way up.
        public var standsPhotosUpright = true
        /// Keep each line's rectified crop in `trace` (for `vitalsnap inspect`; costs a copy per line).
        public var keepsRectifiedLines = false
        /// A file that ended before its image did (`DecodedImage.isCutShort`: the missing part filled in grey) is
        /// an error rather than read; a warning that leaves the image whole is only a warning on the result.
        public var cutShortIsError = true
        /// A photo of a medical device's display (every peripheral but the plain numeric displays) is located by
        /// the stages' photo locator (`ReaderStages.photoLocator`), where they have one. Off for a camera's frames,
        /// which it would take about twice as long as a frame may take.
        public var usesPhotoLocator = true
        /// A photo the stages refuse (no value, no word) is read again by their second opinion
        /// (`ReaderStages.secondOpinion`), whose value or word is then taken with a warning that says so. Off for
        /// a camera's frames: the next frame is the second chance there.
        public var asksSecondOpinion = true
        public init() {}
    }
}
