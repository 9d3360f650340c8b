import Foundation
import VitalSnapImaging
import VitalSnapInference

/// The trained recognizer: a convolutional network reads a `LineCropper` crop and gives, for every few columns
/// (`RecognizerInfo.columnsPerStep`), the probability of each character of its alphabet and of "no character"
/// (the CTC blank). The best class per column, runs merged and blanks dropped, is the text.
///
/// Probabilities are the network's, divided by the temperature found on validation data so that they are
/// calibrated. A character's confidence is its highest probability over its columns; the line's
/// (`LineTranscript.lineConfidence`) is the probability of the text read, summed over all its alignments to
/// the columns (`CTCLabelProbability`), so a character that may be missing where the network saw "nothing", or
/// one more that it may have seen, lowers it, and doubt about where a clear character starts and stops does not.
public struct ModelCharacterRecognizer: CharacterRecognizer {
    private var network: Network
    public let info: RecognizerInfo
    private var input = FeatureMap()
    private var best: [Int] = []
    private var bestProbability: [Double] = []
    /// Per column, the largest logit and the log of the softmax's denominator (temperature applied).
    private var columnMaximum: [Float] = []
    private var columnLogSum: [Double] = []
    /// The class of each character of the last line read, for its text's probability.
    private var labels: [Int] = []
    private var labelling = CTCLabelProbability()
    /// The characters of the line being read. They go out with its reading (sharing this storage), so a line
    /// whose reading is still held when the next is read costs one allocation (one that is dropped, none).
    private var characters: [RecognizedCharacter] = []
    private var histogram = Histogram()
    /// The class of `1` (its alphabet index plus one, after the blank), for the probability of a text with a
    /// leading 1 the network may have missed; nil for an alphabet without it.
    private let oneClass: Int?

    public init(network: Network, info: RecognizerInfo) {
        self.network = network
        self.info = info
        oneClass = info.alphabet.firstIndex(of: "1").map { $0 + 1 }
    }

    public mutating func recognize(_ line: RectifiedLine) throws(ReaderStageError) -> LineTranscript {
        guard let columns = try run(line) else { return .empty }
        let image = line.image
        characters.removeAll(keepingCapacity: true)
        labels.removeAll(keepingCapacity: true)
        var t = 0
        while t < columns {
            let k = best[t]
            guard k != 0 else { t += 1; continue }
            labels.append(k)
            var end = t, peak = bestProbability[t]
            while end + 1 < columns && best[end + 1] == k {
                end += 1
                peak = max(peak, bestProbability[end])
            }
            let character = info.alphabet[k - 1]
            let box = PixelRect(
                x: t * info.columnsPerStep, y: line.digitTop,
                width: (end - t + 1) * info.columnsPerStep, height: line.digitHeight)
            characters.append(RecognizedCharacter(
                character: character, confidence: peak, segments: SegmentAlphabet.segments(for: character) ?? [], box: box))
            t = end + 1
        }
        var read = LineTranscript(characters: characters, contrast: contrast(of: image, line: line), hasGap: false)
        read.lineConfidence = network.withOutput { output in textProbability(output, columns: columns) }
        // The same output's probability of the text with a `1` before it (a thin leading 1 missed).
        if let oneClass, characters.contains(where: { $0.character.isNumber }) {
            labels.insert(oneClass, at: 0)
            read.leadingOneProbability = network.withOutput { output in textProbability(output, columns: columns) }
        }
        return read
    }

    /// The probability of `read`'s text in this crop, over all its alignments (as `recognize` gives its own
    /// reading's `lineConfidence`); 0 for a character outside the alphabet or a crop it cannot read. With
    /// `pointsMayDrop`, the probability of that text or of it without its decimal points (two texts, so the
    /// two add; `infer.text_probability(points_may_drop=True)`): a crop that loses a point still agrees, one
    /// that shows a point the text lacks does not.
    public mutating func probability(of read: LineTranscript, in line: RectifiedLine, pointsMayDrop: Bool) throws(ReaderStageError) -> Double {
        guard !read.characters.isEmpty, let columns = try run(line) else { return 0 }
        var p = probability(of: read.characters, columns: columns, droppingPoints: false)
        // A second text only where the reading has points and something besides them.
        let others = read.characters.lazy.filter { $0.character != "." }.count
        if pointsMayDrop && others > 0 && others < read.characters.count {
            p += probability(of: read.characters, columns: columns, droppingPoints: true)
        }
        return p
    }

    /// The probability of `characters` (without their decimal points when `droppingPoints`) in the output of
    /// the last `run`; 0 for a character outside the alphabet.
    private mutating func probability(
        of characters: [RecognizedCharacter], columns: Int, droppingPoints: Bool
    ) -> Double {
        labels.removeAll(keepingCapacity: true)
        for c in characters where !(droppingPoints && c.character == ".") {
            guard let k = info.alphabet.firstIndex(of: c.character) else { return 0 }
            labels.append(k + 1)
        }
        return network.withOutput { output in textProbability(output, columns: columns) }
    }

    /// Runs the network on `line` and finds its best path; the output's column count, or nil for a crop too
    /// small to read. Throws where the network cannot run.
    private mutating func run(_ line: RectifiedLine) throws(ReaderStageError) -> Int? {
        let image = line.image
        guard image.height == LineCropper.height, image.width >= LineCropper.minimumWidth else { return nil }
        RecognizerInfo.standardise(image, into: &input)
        do {
            try network.run(input)
        } catch {
            throw ReaderStageError(stage: "the trained character recognizer", reason: String(describing: error))
        }
        return network.withOutput { output in bestPath(output) }
    }

    /// The probability of the text read (`labels`, one class per character), over all its alignments
    /// (`bestPath` must have run).
    private mutating func textProbability(_ output: FeatureMap, columns: Int) -> Double {
        let classes = output.channels, scale = 1 / info.temperature
        return output.values.withUnsafeBufferPointer { v in
            exp(labelling.logProbability(of: labels, columns: columns) { t, k in
                Double(v[t * classes + k] - columnMaximum[t]) * scale - columnLogSum[t]
            })
        }
    }

    /// Per output column, the most probable class and its temperature-scaled probability; returns the column count.
    private mutating func bestPath(_ output: FeatureMap) -> Int {
        let columns = output.width * output.height, classes = output.channels
        if best.count < columns {
            best = [Int](repeating: 0, count: columns)
            bestProbability = [Double](repeating: 0, count: columns)
            columnMaximum = [Float](repeating: 0, count: columns)
            columnLogSum = [Double](repeating: 0, count: columns)
        }
        let scale = 1 / info.temperature
        output.values.withUnsafeBufferPointer { v in
            for t in 0..<columns {
                let top = TopClass(v, offset: t * classes, count: classes, scale: scale)
                best[t] = top.index
                bestProbability[t] = 1 / top.sum
                columnMaximum[t] = top.maximum
                columnLogSum[t] = log(top.sum)
            }
        }
        return columns
    }

    /// Grey-level spread in the digit band, measured as the rule-based recognizer measures it
    /// (`LineTranscript.contrast(of:)`).
    private mutating func contrast(of image: GrayImage, line: RectifiedLine) -> Int {
        let band = PixelRect(x: 0, y: line.digitTop, width: image.width, height: line.digitHeight)
        histogram.update(image, in: band)
        return LineTranscript.contrast(of: histogram)
    }
}
