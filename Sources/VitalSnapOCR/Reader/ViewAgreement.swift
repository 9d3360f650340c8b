import Foundation
import Logging

/// Stage: a value line read again in other views of it (`LineView`), for a confidence the network alone cannot
/// give. Its errors are confident ones: a digit misread at 0.99 is misread because of where the crop fell, and
/// moves when the crop moves. So the reading's confidence becomes the geometric mean of its text's probability in
/// the located crop and in every view (`CharacterRecognizer.probability(of:in:pointsMayDrop:)`): a view that
/// reads the line otherwise pulls it down as far as that view is sure of its own reading, one that merely
/// hesitates pulls it down a little. `Training/calibrate.py` scores its validation lines the same way
/// (`infer.views_probability`) when it chooses the threshold.
///
/// Input: a line's transcript and its text's probability in each view (the reader cuts and reads the views,
/// `views(of:)`). Output: the transcript with its confidence made what the views say.
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
    /// A reading less sure than this is not given (the recognizer's threshold, chosen with these views).
    public var minimumConfidence: Double
    /// Traces each line judged: its probability alone, in each view, and the judgement (`vitalsnap inspect
    /// --verbose` prints it), for telling which view doubts a reading.
    private let logger = Logger(label: "vitalsnap.ocr")

    public init(views: [LineView], minimumConfidence: Double) {
        self.views = views
        self.minimumConfidence = minimumConfidence
    }

    /// Whether `read` (of `line`) is checked in the views: a line read as something that is not auxiliary
    /// (a clock or a date), where there are views.
    public func applies(to read: LineTranscript, of line: TextLine) -> Bool {
        !views.isEmpty && line.role != .auxiliary && !read.characters.isEmpty
    }

    /// `line` in view `index` of `views`.
    public func view(_ index: Int, of line: TextLine) -> TextLine { views[index].apply(to: line) }

    /// Whether the views read so far (`probabilities`, of the first of `views`) already settle that `read` is
    /// not sure: a character of it is below `minimumConfidence` (the views judge the line as a whole, never a
    /// character), or its line's confidence judged with every view still unread at probability 1, the most a
    /// view can say, is below `minimumConfidence`. The views still unread are then not read: the check's cost is
    /// in the lines it doubts (a photo's second looks read many), and what they would say cannot make such a
    /// reading sure.
    public func isSettled(_ read: LineTranscript, viewProbabilities probabilities: [Double]) -> Bool {
        guard read.characters.allSatisfy({ $0.confidence >= minimumConfidence }) else { return true }
        return exp(logSum(read, probabilities) / Double(views.count + 1)) < minimumConfidence
    }

    /// `read` with its confidence made what its views say of it: `probabilities[i]` is its text's probability in
    /// view `i`, for the first views (all of them, or fewer where the rest were not read, `isSettled`: then the
    /// mean of those read).
    public func judge(_ read: inout LineTranscript, viewProbabilities probabilities: [Double]) {
        let wasSure = read.confidence >= minimumConfidence
        let alone = read.lineConfidence
        read.lineConfidence = exp(logSum(read, probabilities) / Double(probabilities.count + 1))
        logger.trace("""
            line \(String(read.characters.map(\.character))): alone \(alone), views \(probabilities), \
            judged \(read.lineConfidence)
            """)
        if wasSure && read.confidence < minimumConfidence {
            for i in read.characters.indices { read.characters[i].confidence = 0 }
            read.viewsDisagree = true
        }
    }

    /// The log of `read`'s probability alone and in each view read, each at least `probabilityFloor`.
    private func logSum(_ read: LineTranscript, _ probabilities: [Double]) -> Double {
        probabilities.reduce(log(max(read.lineConfidence, Self.probabilityFloor))) { $0 + log(max($1, Self.probabilityFloor)) }
    }
}
