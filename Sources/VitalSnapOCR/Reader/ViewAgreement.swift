import Foundation

/// Stage 4b: a value line read again in other views of it (`LineView`), for a confidence the network alone
/// cannot give. Its errors are confident ones: a digit misread at 0.99 is misread because of where the crop
/// fell, and moves when the crop moves. So the reading's confidence becomes the geometric mean of its text's
/// probability in the located crop and in every view (`CharacterRecognizer.probability(of:in:pointsMayDrop:)`):
/// a view that reads the line otherwise pulls it down as far as that view is sure of its own reading, one that
/// merely hesitates pulls it down a little. `Training/calibrate.py` scores its validation lines the same way
/// (`infer.views_probability`) when it chooses the threshold.
///
/// A view may lose the text's decimal points (its probability is that of the text or of the text without
/// them), but one that shows a point the text lacks disagrees. A point sits on the line's lower edge, which
/// the shorter and moved views move: on clean displays they lost a point the located crop read surely (`6.2`
/// read `62` in the view moved down), and such readings were refused; a located crop that missed a point a
/// view sees (`7062` for `70.62`) is still refused.
///
/// A reading that was sure enough alone and is not with its views is in doubt: every character's confidence
/// becomes 0 and `viewsDisagree` is set, so the line stays the value and is reported unclear. Only lines the
/// locator calls values are read again: the check costs one rectification and one recognition per view.
public struct ViewAgreement: Sendable {
    /// The name of this way of scoring, as the recognizer's file states the one it was calibrated with
    /// (`vitalsnap.recognizer.view_score`).
    public static let score = "geometric-mean, views may drop decimal points"
    /// The least probability one view counts with, so that a view sure of another text gives a finite log
    /// (`infer.VIEW_PROBABILITY_FLOOR`).
    public static let probabilityFloor = 1e-12

    /// The views besides the located line itself; none turns the check off (the rule-based reader).
    public var views: [LineView]
    private var rectified = RectifiedLine()

    public init(views: [LineView]) {
        self.views = views
    }

    /// `read` (what `recognizer` made of `line`) with its confidence made what its views say of it.
    public mutating func check(
        _ read: inout LineTranscript, of line: TextLine, minimumConfidence: Double, pyramid: ImagePyramid,
        rectifier: inout any LineRectifying, recognizer: inout any CharacterRecognizer
    ) {
        guard !views.isEmpty, line.role != .auxiliary, !read.characters.isEmpty else { return }
        let wasSure = read.confidence >= minimumConfidence
        var logSum = log(max(read.lineConfidence, Self.probabilityFloor))
        for view in views {
            rectifier.rectify(view.apply(to: line), pyramid: pyramid, into: &rectified)
            logSum += log(max(recognizer.probability(of: read, in: rectified, pointsMayDrop: true), Self.probabilityFloor))
        }
        read.lineConfidence = exp(logSum / Double(views.count + 1))
        if wasSure && read.confidence < minimumConfidence {
            for i in read.characters.indices { read.characters[i].confidence = 0 }
            read.viewsDisagree = true
        }
    }
}
