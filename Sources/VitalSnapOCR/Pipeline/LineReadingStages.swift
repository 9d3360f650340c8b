/// The three replaceable stages that turn a frame into recognized lines (locate, rectify, recognize), chosen
/// together: a recognizer only reads what its own rectifier produces.
public struct LineReadingStages: Sendable {
    public var locator: any LineLocator
    public var rectifier: any LineRectifying
    public var recognizer: any CharacterRecognizer

    public init(locator: any LineLocator, rectifier: any LineRectifying, recognizer: any CharacterRecognizer) {
        self.locator = locator
        self.rectifier = rectifier
        self.recognizer = recognizer
    }

    /// The hand-made reader: blobs shaped like characters, chained into lines, read segment by segment.
    public static var rules: LineReadingStages {
        LineReadingStages(locator: RuleLineLocator(), rectifier: LineRectifier(), recognizer: LineRecognizer())
    }
}
