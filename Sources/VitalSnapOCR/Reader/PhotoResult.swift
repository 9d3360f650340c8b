import VitalSnapImaging

/// What reading one image file gave: its reading, or why the file could not be read. Its status and message are
/// told from those, never stored beside them.
public struct PhotoResult: Sendable {
    public enum Status: String, Sendable, Codable {
        case ok
        case noReading = "no-reading"
        case error
    }

    public var file: String
    /// What the display showed (nil where the file could not be read).
    public var reading: Reading?
    public var glare: GlareReport?
    /// Why the file could not be read (a decoding error, a stage that could not run); nil where it was read.
    public var failure: String?
    /// Size of the image as stored, and the scale it was decoded at.
    public var imageWidth = 0
    public var imageHeight = 0
    public var warnings: [String] = []
    /// The transform the photo was read through (`.up`: as it is): its reading's lines are in that frame, its
    /// glare mapped back to the photo as given.
    public var readOrientation = ExifOrientation.up
    /// The tilt (radians, clockwise on screen) the photo was read at where it was read tilted (0: as it is;
    /// `ReaderStages.tiltedLooks` and `turnedLooks`): its reading's lines are in the tilted image
    /// (then turned by `readOrientation`), its glare mapped back to the photo as given.
    public var readTilt = 0.0
    /// The part of the photo it was read in, where it was read in a part of it (`CropLook`; nil: the whole
    /// photo): its reading's lines are in that part's pixels (then tilted by `readTilt`, turned by
    /// `readOrientation`), its glare mapped back to the photo as given.
    public var readRegion: PixelRect?

    /// A file read.
    public init(file: String, reading: Reading, glare: GlareReport? = nil) {
        self.file = file
        self.reading = reading
        self.glare = glare
    }

    /// A file that could not be read, and why.
    public init(file: String, failure: String) {
        self.file = file
        self.failure = failure
    }

    /// `ok` for values, `no-reading` for a word or nothing trustworthy, `error` for a file not read.
    public var status: Status {
        if failure != nil { return .error }
        if case .values? = reading?.outcome { return .ok }
        return .noReading
    }

    /// Why the file could not be read (status `error`), or why nothing was read (status `no-reading`).
    public var message: String? {
        if let failure { return failure }
        switch reading?.outcome {
        case .word(let w)?: return "the display shows \(w)"
        case .none(let why)?: return why.message
        case .values?, nil: return nil
        }
    }

    /// This result, its reading refused: nothing is read, for `why`.
    public func refused(_ why: Refusal) -> PhotoResult {
        var r = self
        r.reading?.refuse(why)
        return r
    }

    /// Whether one of this result's values is one that `refusal` (an earlier look's) doubts for what reading the
    /// same digits again cannot settle (`Refusal.doubts`); false for nil.
    public func givesValue(doubtedBy refusal: Refusal?) -> Bool {
        guard let refusal else { return false }
        return reading?.values.contains { refusal.doubts($0.text) } ?? false
    }

    /// Whether this result gives values none of which agrees with any of the texts earlier looks read sure but
    /// as no plausible value (`Refusal.readSureAs`, `SureText.agrees(with:)`): the display read otherwise than
    /// it was read clearly (`91` beside `197`). False where there are no such texts.
    public func contradicts<Texts: Sequence<SureText>>(sureTexts: Texts) -> Bool {
        guard let values = reading?.values, !values.isEmpty else { return false }
        var anyText = false
        for sure in sureTexts {
            anyText = true
            if values.contains(where: { sure.agrees(with: $0.text) }) { return false }
        }
        return anyText
    }
}
