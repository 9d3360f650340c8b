import VitalSnapImaging

/// One character read from a rectified line.
public struct RecognizedCharacter: Sendable, Hashable {
    /// A digit, `-`, `.`, one of the letters meters show (L, H, E, r, o, I), or `?` when the segments match no
    /// character.
    public var character: Character
    /// 0...1: how clearly each segment was on or off.
    public var confidence: Double
    public var segments: SegmentSet
    /// Columns and rows in the rectified line image.
    public var box: PixelRect
    /// False for ink that does not sit in the line's digit band (taller than the digits).
    public var isAligned: Bool = true
    /// False for ink that cannot be a seven-segment character even damaged (ink between the segments): an
    /// icon or a logo beside the number rather than a digit of it.
    public var couldBeDigit: Bool = true

    public init(character: Character, confidence: Double, segments: SegmentSet, box: PixelRect, isAligned: Bool = true) {
        self.character = character
        self.confidence = confidence
        self.segments = segments
        self.box = box
        self.isAligned = isAligned
    }
}

/// The characters of one text line and where the line is in the frame.
public struct RecognizedLine: Sendable {
    public var characters: [RecognizedCharacter]
    /// The reading's confidence (`LineTranscript.confidence`): its least clear character's, or the
    /// recognizer's confidence in the line as a whole where that is lower.
    public var confidence: Double
    /// Digit height in working-image pixels: how prominent the line is.
    public var digitHeight: Double
    public var polarity: InkPolarity
    /// Whether `polarity` was told against the display around the characters (`RectifiedLine.polarityIsSure`).
    public var polarityIsSure = true
    /// What the locator says the line is (value, auxiliary digits); nil where it cannot tell.
    public var role: LineRole?
    /// The line's corners in image coordinates (top-left, top-right, bottom-right, bottom-left); nil for a line
    /// not placed in an image. Four points held in place, not an array: a line read costs no allocation for them.
    public var corners: LineQuad?
    /// Contrast between ink and background, 0...255.
    public var contrast: Int
    /// A digit-sized gap inside the line: a character may be missing (hidden by glare, or not detected).
    public var hasGap: Bool
    /// Share of the digit band covered by ink that is no character: high for texture and printed text.
    public var noise: Double = 0
    /// The line's other views made its reading too unsure to give (`LineTranscript.viewsDisagree`): digits
    /// whose reading is in doubt, not ink that is no digits.
    public var viewsDisagree = false
    /// The recognizer's probability of the text with a `1` before it (`LineTranscript.leadingOneProbability`).
    public var leadingOneProbability: Double = 0
    /// Maps the line's rectified image (where `characters` have their boxes) to image coordinates.
    public var toImage = AffineMap.identity
    /// Where the locator put the whole line, in image coordinates, when it says more than the characters'
    /// boxes do: a trained recognizer marks each character by a narrow spike somewhere on it, so the line's
    /// ends as located are the better guess of where the number starts and stops (nil: the characters' boxes).
    public var locatedBox: PixelRect?

    /// One character's box in image coordinates: the box enclosing its rotated corners. Computed on demand:
    /// only the few lines a reading is made of need it.
    public func imageBox(of character: RecognizedCharacter) -> PixelRect {
        let b = character.box
        func corner(_ x: Int, _ y: Int) -> Point {
            let p = toImage.apply(Double(x), Double(y))
            return Point(x: p.x, y: p.y)
        }
        var extent = PointExtent(corner(b.minX, b.minY))
        extent.add(corner(b.maxX, b.minY))
        extent.add(corner(b.maxX, b.maxY))
        extent.add(corner(b.minX, b.maxY))
        return extent.rect
    }

    public init(
        characters: [RecognizedCharacter], confidence: Double, digitHeight: Double, polarity: InkPolarity,
        role: LineRole? = nil, corners: LineQuad?, contrast: Int, hasGap: Bool, noise: Double = 0
    ) {
        self.characters = characters
        self.confidence = confidence
        self.digitHeight = digitHeight
        self.polarity = polarity
        self.role = role
        self.corners = corners
        self.contrast = contrast
        self.hasGap = hasGap
        self.noise = noise
    }

    /// Appended character by character: a short text stays inside the string, where `String(sequence)` and
    /// `joined` reserve storage for it first (a measured allocation per line and frame).
    public var text: String {
        var text = ""
        for c in characters { text.append(c.character) }
        return text
    }

    public var boundingBox: PixelRect { corners.map { PixelRect(enclosing: $0) } ?? .zero }
}
