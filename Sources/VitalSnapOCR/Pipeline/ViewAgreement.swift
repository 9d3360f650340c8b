/// Stage 4b: a value line read again in other views of it (`LineView`), for a confidence the network alone
/// cannot give. Its errors are confident ones: a digit misread at 0.99 is misread because of where the crop
/// fell, and moves when the crop moves. So a line whose text differs in any view is not sure at all (every
/// character's confidence becomes 0: the reader abstains), and one that reads the same everywhere is as sure as
/// its least sure view (its `lineConfidence` lowered to that view's `confidence`).
///
/// Only lines the locator calls values, and read well enough to be given, are read again: the check costs one
/// rectification and one recognition per view.
public struct ViewAgreement: Sendable {
    /// The views besides the located line itself; none turns the check off (the rule-based reader).
    public var views: [LineView]
    private var rectified = RectifiedLine()

    public init(views: [LineView]) {
        self.views = views
    }

    /// `read` (what `recognizer` made of `line`) with its characters' confidences lowered to what the views
    /// agree on.
    public mutating func check(
        _ read: inout LineRecognition, of line: TextLine, minimumConfidence: Double, pyramid: ImagePyramid,
        rectifier: inout any LineRectifying, recognizer: inout any CharacterRecognizer
    ) {
        guard !views.isEmpty, line.role != .auxiliary, !read.characters.isEmpty,
              read.confidence >= minimumConfidence
        else { return }
        var least = 1.0
        for view in views {
            rectifier.rectify(view.apply(to: line), pyramid: pyramid, into: &rectified)
            let again = recognizer.recognize(rectified)
            guard again.characters.count == read.characters.count,
                  zip(again.characters, read.characters).allSatisfy({ $0.character == $1.character })
            else {
                for i in read.characters.indices { read.characters[i].confidence = 0 }
                read.viewsDisagree = true
                return
            }
            least = min(least, again.confidence)
        }
        read.lineConfidence = min(read.lineConfidence, least)
    }
}
