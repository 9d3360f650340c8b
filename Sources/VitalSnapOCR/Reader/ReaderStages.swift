import VitalSnapImaging

/// The reader's replaceable stages, wired together in one place: a reader is rule-based or trained as a whole,
/// since a recognizer only reads what its own rectifier produces, its threshold was chosen with its views, and
/// each kind of locator calls for its own way of standing a photo upright.
public struct ReaderStages: Sendable {
    /// Where the frame's lines are.
    public var locator: any LineLocator
    /// Which way up the photo is, from the lines located (nil: the photo is read as it stands, and
    /// `turnCheck` alone deals with turned photos).
    public var orienter: (any PhotoOrienter)?
    /// Each line resampled for the recognizer.
    public var rectifier: any LineRectifying
    /// Each line's characters.
    public var recognizer: any CharacterRecognizer
    /// Value lines read again in other views (no views: no check).
    public var agreement: ViewAgreement
    /// The last look at a photo that may be turned.
    public var turnCheck: any TurnCheck
    /// A line with a character less sure than this is not read as a value (the recognizer's own scale).
    public var minimumConfidence: Double
    /// Whether a line's ink must be of the polarity the peripheral's display shows to be one of its fields
    /// (`ReadingAssembler.checksPolarity`). The rule-based recognizer reads segments of the polarity it is given,
    /// and reading the other one finds ghosts; the trained one reads either, so the polarity estimated for its
    /// lines tells nothing about whether they are the display's digits.
    public var checksPolarity: Bool
    /// The locator for photos of a medical device's display (every peripheral but the plain numeric displays), in
    /// place of `locator` (`DisplayReader.Configuration.usesPhotoLocator`; nil: `locator` locates everything).
    /// The trained reader's is a wider detector (`Models/README.md`): it finds more of the value lines of the
    /// generated medical families, but it cut the electricity meter's long lines short, and it takes a camera's
    /// frame about twice as long as the 10 ms a frame may take.
    public var photoLocator: (any LineLocator)?
    /// A second locator for a photo these stages refuse: the same stages read the lines it finds before the
    /// `secondOpinion` is asked (`DisplayReader.Configuration.asksSecondOpinion`; nil: none).
    public var secondLocator: (any LineLocator)?
    /// The photo locator taking a closer look at a photo these stages refuse, after the second locator: its
    /// network shown the frame `closerLookScale` times as large as it was trained at, so that rows whose digits
    /// were a few cells tall (a monitor's pulse row, a display held far off) are found. The same stages read the
    /// lines it finds (`DisplayReader`; nil: none). Not after a refusal over glare.
    public var closerLocator: (any LineLocator)?
    /// How much larger the closer look shows the frame to the photo locator. Chosen on the generated medical
    /// families (1,200 scenes at each of seeds 900001 and 900002; issue 41): 1.25 read 29 and 30 more photos, 1.125
    /// 18 and 30, 1.375 29 and 31 (1.5: 24, seed 900001 only); taken by itself in place of the first look (not as a second
    /// one), 1.25 read the BP monitors better and the scales worse, with more wrong readings.
    public static let closerLookScale = 1.25
    /// The turns (radians, clockwise on screen) at which a photo these stages still refuse after the closer look
    /// is read again, tilted, by the same stages (`DisplayReader`; empty: none), before the second opinion. The
    /// detector finds the rows of a display turned a little on the table or held askew, and their italic digits,
    /// less well than those of an upright one. Not after a refusal over glare.
    public var tiltedLooks: [Double] = []
    /// The tilted looks of the trained reader, in the order asked: 15 degrees either way, then 30, then 45.
    /// Chosen on the generated medical families (1,200 scenes at each of seeds 900001 and 900002; issue 41),
    /// from 1,039 / 8 and 1,001 / 13 right / wrong: 20 degrees either way read 1,081 / 8 and 1,052 / 15, 15
    /// 1,075 / 8 and 1,055 / 16, 25 1,077 / 9 and 1,055 / 16, 30 1,076 / 9 and 1,045 / 13; 15 and 30 1,096 / 9 and
    /// 1,071 / 16; with 45 too, 1,100 / 9 and 1,077 / 16.
    public static let tiltedLookAngles = [-15.0, 15, -30, 30, -45, 45].map { $0 * Double.pi / 180 }
    /// Where a plain numeric display (`numericDisplay`: a fuel pump, an electricity meter, a cut-out BP field)
    /// that these stages refuse is a crop of its line, the locator that reads it as one line filling the crop
    /// (`WholeCropLocator`; nil: not read so), asked before `numericTiltedLooks`.
    public var wholeCropLocator: (any LineLocator)?
    /// The tilts at which a plain numeric display these stages refuse is read again (empty: none). Its readings
    /// there and in the whole crop are taken on `NumericLookTerms`' terms; such a display gets no other look
    /// after the second recognizer but, thresholded, the stroke looks (`strokeLooks`).
    public var numericTiltedLooks: [Double] = []
    /// The numeric tilted looks of the trained reader, in the order asked: 15 degrees either way, then 30, 45 and
    /// 60 (those after the first two only on `NumericLookTerms.asks(tiltAt:)`'s terms, and none over 30 degrees of
    /// a long crop). Measured on the numeric folders (2026-12-06, issue 41): with 45 degrees too, the held halves read
    /// the same (on a first draft of the terms: no fewer digits than the first look saw), for half as much time
    /// again on the refused photos. `vitalsnap batch` on the 441 fuel pumps took 5.0 and 5.2 s with 15 and 30
    /// degrees, 3.7 and 3.8 s without (side by side). The tilts past 30 degrees (2026-12-07) read one more held BP
    /// field cut askew out of its photo (a pulse `70`), and nothing else more or less on either half of the
    /// numeric folders; the tilts halfway between (22.5, 37.5, 52.5 degrees) two more of the train half, but BP
    /// fields darker, flatter and softer wrong (a `167` read `160`), so not those.
    public static let numericTiltedLookAngles = [-15.0, 15, -30, 30, -45, 45, -60, 60]
        .map { $0 * Double.pi / 180 }
    /// The looks at a thresholded plain numeric display still refused after its tilted looks with its strokes'
    /// holes filled, in the order asked (empty: none; `StrokeLook`, a reading taken where two of them agree).
    public var strokeLooks: [StrokeLook] = []
    /// The stroke looks of the trained reader: windows of radius a 80th, a 40th and three 80ths of the digits'
    /// height (one, two and three pixels for a BP field's 80-pixel digits).
    public static let numericStrokeLooks = [1, 2, 3].map { StrokeLook(radiusPerDigitHeight: Double($0) / 80) }
    /// The turns (radians, clockwise on screen) at which a photo these stages still refuse after the tilted looks
    /// is read once more, by the same stages, before the second opinion (`DisplayReader`; empty: none): a half
    /// turn, then a quarter either way, then three-eighths, then the turns halfway between these. The detector
    /// gives the rows of a display held upside down the reading direction of an upright one more often than it
    /// should (symmetric segment digits: `112` read `211`, `86` read `98`), and the orienter, which sees the
    /// same digits, is as sure of it; it misjudges some sideways photos too. Not where the photo as it stands
    /// showed which way up it is (`mayReadTurned(after:)`), nor after a refusal over glare; a value read so is
    /// taken, a word is not (turned, `LO` is `07`, and a BP monitor's pulse `40` read `Lo`).
    public var turnedLooks: [Double] = []
    /// The turned looks of the trained reader, in the order asked. Measured on the generated medical families
    /// (1,200 scenes at each of seeds 900001 and 900002; issue 41), from 1,100 / 9 and 1,077 / 16 right / wrong:
    /// the half turn alone 1,110 / 10 (seed 900001), with the clock-or-date rule 1,110 / 9 and 1,083 / 17, with
    /// words refused too 1,109 / 9 and 1,083 / 16; the quarter turns after it 1,116 / 10 and 1,088 / 16.
    /// Then (2026-12-06) three-eighths either way, which with the tilted looks leaves no turn more than 22.5
    /// degrees from a look: 1,138 / 6 and 1,116 / 9 became 1,140 / 6 and 1,116 / 9 (two colour monitors lying
    /// turned about 150 degrees); then the turns halfway between those beyond 45 degrees (157.5, 112.5, 67.5
    /// either way), which leave none more than 11.25 degrees from a look: 1,144 / 6 and 1,120 / 9. The medical
    /// products, glucose-morepen, bp-paramed and the stills the same at each step.
    public static let turnedLookAngles = [180.0, 90, -90, 135, -135, 157.5, -157.5, 112.5, -112.5, 67.5, -67.5]
        .map { $0 * Double.pi / 180 }
    /// The clip limits (`ContrastEqualizer.clipLimit`) at which a photo refused after every other look is read
    /// once more with its contrast evened out tile by tile, the whole chain again on the equalized image
    /// (`DisplayReader`; empty: none). A dim row on a dim panel (a monitor's pulse in the shadow of its bezel, an
    /// LCD seen off its axis) is a few grey levels from its background at the detector's input; equalized, it
    /// is as dark against its surroundings as the bright rows are against theirs. Not after a refusal over
    /// glare: the glare check was made on the photo as it is.
    public var contrastLooks: [Double] = []
    /// The contrast looks of the trained reader, in the order asked: clip limit 2, then 4, over 8 x 8 tiles.
    /// Measured on the generated medical families (1,200 scenes at each of seeds 900001 and 900002; issue 41)
    /// and the medical products: 1,117 / 10, 1,089 / 15 and 19 / 0 right / wrong became 1,122 / 10, 1,102 / 15
    /// and 21 / 0; clip limit 2 alone read 4, 9 and 1 more (docs/accuracy.md).
    public static let contrastLookClipLimits: [Double] = [2, 4]
    /// How a colour photo these stages still refuse after every look, contrast looks included, is decoded again
    /// and read once more without the contrast looks, in this order, each on the terms of `ChannelLook`
    /// (`DisplayReader.read(file:)`; empty: not). True colours lose contrast in luma two ways: a blue or green
    /// digit on a dark screen becomes a dim grey (pure blue is 29 of 255), which its brightest channel
    /// (`DecodeOptions.Grey.brightestChannel`) makes as bright as a white one; a yellow, green or cyan digit on a
    /// light screen or a tinted LCD becomes a light grey near its background's (pure yellow is 226), which its
    /// darkest channel (`.darkestChannel`) makes as dark as a black one. The trained stages (`model`) ask both for
    /// photos (`channelLookGreys`); a camera's frames are read in luma.
    public var channelLooks: [DecodeOptions.Grey] = []
    /// The trained stages' `channelLooks`: the brightest channel, then the darkest. Measured on the generated
    /// medical families (1,200 scenes at each of seeds 900001 and 900002; issue 41), the darkest channel after
    /// the brightest: docs/accuracy.md.
    public static let channelLookGreys: [DecodeOptions.Grey] = [.brightestChannel, .darkestChannel]
    /// The last look at a photo of a device with two values or more that found some of them and not all, after
    /// every other look, channel looks included: the part of the photo around the lines found read as a photo of
    /// its own, by these stages with every look but this one (`CropLook`, `DisplayReader.read(file:)`; nil: not
    /// asked). Photos only: a camera's next frame is its second chance.
    public var cropLook: CropLook?
    /// How far before each value line (digit heights) the line is cut again and read, for a thin leading `1` its
    /// locator left out (`LeadingOneLook`; nil: not looked). Photos only (a camera's frames are read once per
    /// line), and not a plain numeric display, whose values have no range to doubt a `1` by.
    public var leadingOneReach: Double?
    /// The trained stages' `leadingOneReach`: a `1`'s cell and the gap after it.
    public static let leadingOneLookReach = 0.8
    /// Whether a photo refused as it stands (`refused`) may be read turned (`turnedLooks`): not where a line it
    /// read is a clock or a date (digits on both sides of a `:` or `-`, as `15:02` or `24-06`), which shows the
    /// display the right way up. Read turned, such a display's clock and date become other digits, and its other
    /// lines may give a value that is none (a glucose meter showing `---` read `90` from its date upside down).
    public static func mayReadTurned(after refused: PhotoResult) -> Bool {
        guard let text = refused.reading?.recognizedText else { return true }
        let characters = Array(text)
        for i in characters.indices.dropFirst().dropLast() where characters[i] == ":" || characters[i] == "-" {
            if characters[i - 1].isNumber && characters[i + 1].isNumber { return false }
        }
        return true
    }
    /// Whether a photo refused where an `E` was seen (`SecondOpinion.mayAsk(after:)` false) may still be read
    /// turned (`turnedLooks`, and those only): where no line read starts with its `E`, as every error code does
    /// (`E2`, `E-3`, `Err`), and every `E` follows a digit or a point. Turned over, a seven-segment `3` is an `E`,
    /// so a display upside down reads `69E` for `36.9` and `1EE` for `333`, which no error screen upright shows;
    /// read turned, it shows its value. A line starting with `E` (`E22` for `22.3` upside down) may be an error
    /// code as it stands, whose turned reading would be a value that is none, and still refuses every look.
    public static func mayReadTurnedDigits(after refused: PhotoResult) -> Bool {
        guard let text = refused.reading?.recognizedText, text.contains("E") else { return false }
        for line in text.split(separator: "\n") where line.contains("E") {
            guard line.first != "E" else { return false }
            for (before, c) in zip(line, line.dropFirst()) where c == "E" {
                guard before.isNumber || before == "." || before == "E" else { return false }
            }
        }
        return mayReadTurned(after: refused)
    }
    /// Who reads a photo these stages refuse, for a second opinion (`DisplayReader.Configuration.asksSecondOpinion`).
    public var secondOpinion: SecondOpinion
    /// A second recognizer for a photo these stages refuse because a value's digits were unclear: the same
    /// stages read it again with this recognizer, and its reading is taken only where each value is the text of
    /// a line the first recognizer read (`DisplayReader`; nil: none). Asked first. Measured on the held halves
    /// and the generated families (issue 41): the families read 9 more, one wrong fewer. On a plain numeric
    /// display, whose values have no plausible range, a value with a leading zero is not taken where the first
    /// recognizer's views of the line disagreed: both recognizers read a fuel pump's `108.01`, whose leading `1`
    /// the bezel hides, as `08.01`, which the first had read otherwise in a view.
    public var secondRecognition: Recognition?

    /// A recognizer with the threshold and views its calibration chose for it.
    public struct Recognition: Sendable {
        public var recognizer: any CharacterRecognizer
        public var minimumConfidence: Double
        public var views: [LineView]

        public init(recognizer: any CharacterRecognizer, minimumConfidence: Double, views: [LineView] = []) {
            self.recognizer = recognizer
            self.minimumConfidence = minimumConfidence
            self.views = views
        }
    }

    /// These stages on `locator`'s lines, with no second look of their own but, where `keepingSecondRecognition`,
    /// the second recognizer: the stages of one of `DisplayReader`'s later looks (the second locator's, the closer
    /// one, tilted, turned).
    public func looking(with locator: any LineLocator, keepingSecondRecognition: Bool) -> ReaderStages {
        var stages = self
        stages.locator = locator
        stages.secondLocator = nil
        stages.closerLocator = nil
        stages.tiltedLooks = []
        stages.numericTiltedLooks = []
        stages.strokeLooks = []
        stages.wholeCropLocator = nil
        stages.turnedLooks = []
        stages.contrastLooks = []
        stages.cropLook = nil
        stages.secondOpinion = .none
        if !keepingSecondRecognition { stages.secondRecognition = nil }
        return stages
    }

    /// These stages with `recognition`'s recognizer, threshold and views in place of their own, and no second
    /// look of any kind: the reader a second recognizer reads a refused photo with.
    public func recognizing(with recognition: Recognition) -> ReaderStages {
        var stages = self
        stages.recognizer = recognition.recognizer
        stages.minimumConfidence = recognition.minimumConfidence
        stages.agreement = ViewAgreement(views: recognition.views, minimumConfidence: recognition.minimumConfidence)
        stages.secondLocator = nil
        stages.closerLocator = nil
        stages.tiltedLooks = []
        stages.numericTiltedLooks = []
        stages.strokeLooks = []
        stages.wholeCropLocator = nil
        stages.turnedLooks = []
        stages.contrastLooks = []
        stages.channelLooks = []
        stages.cropLook = nil
        stages.secondOpinion = .none
        stages.secondRecognition = nil
        return stages
    }

    /// A second reader for what the first refuses.
    public enum SecondOpinion: Sendable, Hashable {
        case none
        /// The rule-based reader. Measured on every labelled folder (issue 41): on the medical devices' photos
        /// and the samples it reads photos the trained reader refuses, none wrong (medical-products +3,
        /// glucose-morepen +1 of 11 held, Samples/stills +7, the clips' frames +2); on the plain numeric displays
        /// (fuel pumps, electricity meters, cut-out BP fields) it read wrong more often than right, so it is asked
        /// only for a peripheral whose readings have plausible ranges (not a `numericDisplay`).
        case rules

        /// Whether a photo the stages refused goes to the second opinion: not where the stages saw an error
        /// code (`E2`, `E-3`, `Err`: an `E` among the lines they read). Such a display shows no value, and the
        /// rules, which read segments as they come, read it as one where it stands upside down (`E2` turned is
        /// `23`): on 200 generated glucose scenes that gave 6 wrong values among the second opinion's 9.
        public func asks(after refused: PhotoResult) -> Bool {
            self != .none && Self.mayAsk(after: refused)
        }

        /// Whether a refused photo may be read again at all, by the second locator's lines or the rules: not
        /// where an error code was seen (`asks(after:)`).
        public static func mayAsk(after refused: PhotoResult) -> Bool {
            !(refused.reading?.recognizedText.contains("E") ?? false)
        }
    }

    public init(
        locator: any LineLocator, orienter: (any PhotoOrienter)? = nil, rectifier: any LineRectifying,
        recognizer: any CharacterRecognizer, minimumConfidence: Double, views: [LineView] = [],
        turnCheck: any TurnCheck, checksPolarity: Bool, secondLocator: (any LineLocator)? = nil,
        secondOpinion: SecondOpinion = .none, secondRecognition: Recognition? = nil, photoLocator: (any LineLocator)? = nil,
        closerLocator: (any LineLocator)? = nil, tiltedLooks: [Double] = [], wholeCropLocator: (any LineLocator)? = nil,
        numericTiltedLooks: [Double] = [], strokeLooks: [StrokeLook] = [], turnedLooks: [Double] = [],
        contrastLooks: [Double] = [], channelLooks: [DecodeOptions.Grey] = [], leadingOneReach: Double? = nil,
        cropLook: CropLook? = nil
    ) {
        self.locator = locator
        self.orienter = orienter
        self.rectifier = rectifier
        self.recognizer = recognizer
        self.minimumConfidence = minimumConfidence
        self.agreement = ViewAgreement(views: views, minimumConfidence: minimumConfidence)
        self.turnCheck = turnCheck
        self.checksPolarity = checksPolarity
        self.secondLocator = secondLocator
        self.secondOpinion = secondOpinion
        self.secondRecognition = secondRecognition
        self.photoLocator = photoLocator
        self.closerLocator = closerLocator
        self.tiltedLooks = tiltedLooks
        self.wholeCropLocator = wholeCropLocator
        self.numericTiltedLooks = numericTiltedLooks
        self.strokeLooks = strokeLooks
        self.turnedLooks = turnedLooks
        self.contrastLooks = contrastLooks
        self.channelLooks = channelLooks
        self.leadingOneReach = leadingOneReach
        self.cropLook = cropLook
    }

    /// The hand-made reader: blobs shaped like characters, chained into lines, read segment by segment; a photo
    /// that gives nothing as it stands is read turned (`RuleTurnSearch`).
    public static var rules: ReaderStages {
        ReaderStages(
            locator: RuleLineLocator(), rectifier: RuleLineRectifier(), recognizer: RuleCharacterRecognizer(),
            minimumConfidence: RuleCharacterRecognizer.minimumReadingConfidence, turnCheck: RuleTurnSearch(),
            checksPolarity: true)
    }

    /// The trained reader: the detector (for a photo of a medical device, the photo detector, where the models
    /// have one) finds the lines in any orientation, the orienter has a turned photo read
    /// stood upright, the recognizer reads the crops it was trained on, and reads each value line again in the
    /// views its calibration was made with; a photo it refuses for an unclear value is read again by the second
    /// recognizer, where the models have one, and a photo of a measuring device it refuses is read again from the
    /// lines the second detector finds, where the models have one, then from the lines the photo detector finds
    /// looking closer, then tilted (`tiltedLookAngles`), then turned (`turnedLookAngles`), then by the rules;
    /// then all of that again with the photo's contrast evened out (`contrastLookClipLimits`); a colour photo
    /// still refused is read in its brightest channel, then its darkest (`channelLookGreys`). A plain numeric
    /// display refused is read as one line filling the crop (`WholeCropLocator`), then tilted
    /// (`numericTiltedLookAngles`), then, thresholded, with its strokes' holes filled (`numericStrokeLooks`).
    public static func model(_ models: ReaderModels) -> ReaderStages {
        ReaderStages(
            locator: ModelLineLocator(network: models.detector, longSide: models.detectorLongSide), orienter: models.orienter.map { ModelPhotoOrienter($0) },
            rectifier: ModelLineRectifier(),
            recognizer: ModelCharacterRecognizer(network: models.recognizer, info: models.recognizerInfo),
            minimumConfidence: models.recognizerInfo.minimumConfidence, views: models.recognizerInfo.views,
            turnCheck: SidewaysSecondChance(), checksPolarity: false,
            secondLocator: models.secondDetector.map { ModelLineLocator(network: $0.network, longSide: $0.longSide) },
            secondOpinion: models.secondOpinion,
            secondRecognition: models.secondRecognizer.map {
                Recognition(
                    recognizer: ModelCharacterRecognizer(network: $0.network, info: $0.info),
                    minimumConfidence: $0.info.minimumConfidence, views: $0.info.views)
            },
            photoLocator: models.photoDetector.map { ModelLineLocator(network: $0.network, longSide: $0.longSide) },
            closerLocator: models.photoDetector.map {
                ModelLineLocator(network: $0.network, longSide: DetectorConvention.longSide($0.longSide, scaledBy: closerLookScale))
            },
            tiltedLooks: tiltedLookAngles, wholeCropLocator: WholeCropLocator(), numericTiltedLooks: numericTiltedLookAngles,
            strokeLooks: numericStrokeLooks, turnedLooks: turnedLookAngles,
            contrastLooks: contrastLookClipLimits,
            channelLooks: channelLookGreys, leadingOneReach: leadingOneLookReach, cropLook: CropLook())
    }
}
