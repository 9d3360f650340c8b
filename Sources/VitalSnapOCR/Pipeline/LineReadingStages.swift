/// The three replaceable stages that turn a frame into recognized lines (locate, rectify, recognize), chosen
/// together: a recognizer only reads what its own rectifier produces.
public struct LineReadingStages: Sendable {
    public var locator: any LineLocator
    public var rectifier: any LineRectifying
    public var recognizer: any CharacterRecognizer
    /// A line with a character less sure than this is not read as a value (the recognizer's own scale).
    public var minimumConfidence: Double

    public init(
        locator: any LineLocator, rectifier: any LineRectifying, recognizer: any CharacterRecognizer, minimumConfidence: Double
    ) {
        self.locator = locator
        self.rectifier = rectifier
        self.recognizer = recognizer
        self.minimumConfidence = minimumConfidence
    }

    /// The hand-made reader: blobs shaped like characters, chained into lines, read segment by segment.
    public static var rules: LineReadingStages {
        LineReadingStages(
            locator: RuleLineLocator(), rectifier: LineRectifier(), recognizer: LineRecognizer(),
            minimumConfidence: LineRecognizer.minimumReadingConfidence)
    }

    /// The trained reader: the detector finds the lines, the recognizer reads the crops it was trained on.
    public static func model(_ models: ReaderModels) -> LineReadingStages {
        LineReadingStages(
            locator: ModelLineLocator(network: models.detector), rectifier: ModelLineRectifier(),
            recognizer: ModelCharacterRecognizer(network: models.recognizer, info: models.recognizerInfo),
            minimumConfidence: models.recognizerInfo.minimumConfidence)
    }
}
