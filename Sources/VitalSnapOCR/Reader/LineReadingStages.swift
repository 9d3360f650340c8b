/// The replaceable stages that turn a frame into recognized lines (locate, rectify, recognize, and for a
/// trained recognizer the check of its value lines in other views), chosen together: a recognizer only reads
/// what its own rectifier produces.
public struct LineReadingStages: Sendable {
    public var locator: any LineLocator
    public var rectifier: any LineRectifying
    public var recognizer: any CharacterRecognizer
    /// A line with a character less sure than this is not read as a value (the recognizer's own scale).
    public var minimumConfidence: Double
    /// Value lines read again in other views; a reading that changes is not given (no views: no check).
    public var agreement: ViewAgreement
    /// Tells which way up a photo is from the lines located in it, so that a turned one is read again stood
    /// upright (nil: photos are read as they are, and the reader's own orientation policy applies).
    public var orienter: (any PhotoOrienter)?

    public init(
        locator: any LineLocator, rectifier: any LineRectifying, recognizer: any CharacterRecognizer, minimumConfidence: Double,
        views: [LineView] = [], orienter: (any PhotoOrienter)? = nil
    ) {
        self.locator = locator
        self.rectifier = rectifier
        self.recognizer = recognizer
        self.minimumConfidence = minimumConfidence
        self.agreement = ViewAgreement(views: views)
        self.orienter = orienter
    }

    /// The hand-made reader: blobs shaped like characters, chained into lines, read segment by segment.
    public static var rules: LineReadingStages {
        LineReadingStages(
            locator: RuleLineLocator(), rectifier: RuleLineRectifier(), recognizer: RuleCharacterRecognizer(),
            minimumConfidence: RuleCharacterRecognizer.minimumReadingConfidence)
    }

    /// The trained reader: the detector finds the lines, the orienter has a turned photo read stood upright, the
    /// recognizer reads the crops it was trained on, and reads each value line again in the views its
    /// calibration was made with.
    public static func model(_ models: ReaderModels) -> LineReadingStages {
        LineReadingStages(
            locator: ModelLineLocator(network: models.detector), rectifier: ModelLineRectifier(),
            recognizer: ModelCharacterRecognizer(network: models.recognizer, info: models.recognizerInfo),
            minimumConfidence: models.recognizerInfo.minimumConfidence, views: models.recognizerInfo.views,
            orienter: models.orienter.map { ModelPhotoOrienter($0) })
    }
}
