import Foundation
import VitalSnapImaging

/// Stage: which of the lines read are the frame's lines. The same digits are often read more than once (both
/// polarities, a piece of a larger line, a segment found at a finer pyramid level, two looks of a detector); the
/// best reading of each place is kept.
///
/// Input: the located lines as they come (is this one inside a line already read?) and each line read. Output:
/// the lines kept, most prominent first. Keeps its working lists between frames.
public struct LineSelection: Sendable {
    public struct Configuration: Sendable {
        /// Lines read per frame at most, most prominent first.
        public var maximumLines = 40
        /// A located line less tall than this share of a line already read (digit heights)...
        public var pieceHeightRatio = 0.8
        /// ...with at least this share of its box (0...1) inside that line (its quad for a detector's line,
        /// which may lie at a slant; its characters' boxes otherwise) is a piece of those digits (one segment,
        /// half a digit), not a number of its own, and is not read.
        public var pieceOverlap = 0.4
        /// Points across and along a box at which its share inside a slanted line's quad is measured.
        public var pieceSamples = 8
        /// Two lines whose digit heights differ by less than this factor...
        public var rivalHeightRatio = 1.35
        /// ...and overlapping by at least this share of the smaller box (0...1) are rival readings of the same
        /// digits: the better one is kept. A much smaller line overlapping a larger one is something else (a unit
        /// label, the time under the value).
        public var rivalOverlap = 0.5
        /// A reading's quality is its clear characters less this many for each unclear one...
        public var unclearCharacterWeight = 2.0
        /// ...less this where a character may be missing...
        public var gapPenalty = 1.0
        /// ...less this for texture or ink read with the wrong polarity (`RecognizedLine.isTexture`): such a
        /// reading loses to any real reading of the same place.
        public var texturePenalty = 10.0
        public init() {}
    }

    public var configuration: Configuration
    /// A place already read as a line of two or more character shapes: its box and digit height, and for a
    /// detector's line (no character candidates), the rectangle it reads along, which may lie at a slant.
    private struct Claim {
        var box: PixelRect
        var digitHeight: Double
        var slanted: (centerX: Double, centerY: Double, cos: Double, sin: Double, halfLength: Double, halfHeight: Double)?

        init(_ line: TextLine) {
            box = line.boundingBox
            digitHeight = line.digitHeight
            slanted = line.candidatesAreCharacters ? nil : (
                line.centerX, line.centerY, cos(line.angle), sin(line.angle), line.length / 2, line.digitHeight / 2)
        }
    }
    private var claimed: [Claim] = []
    private var found: [RecognizedLine] = []
    private var quality: [Double] = []
    private var ranked: [(quality: Double, height: Double, index: Int)] = []
    private var keep: [Bool] = []

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    /// Starts a frame.
    public mutating func reset() {
        claimed.removeAll(keepingCapacity: true)
        found.removeAll(keepingCapacity: true)
        quality.removeAll(keepingCapacity: true)
    }

    /// Whether as many lines as are read per frame have been read.
    public var isFull: Bool { found.count >= configuration.maximumLines }

    /// Whether `line` lies inside a taller line already read: a piece of its digits.
    public func isPiece(_ line: TextLine) -> Bool {
        let box = line.boundingBox
        return claimed.contains { c in
            line.digitHeight < configuration.pieceHeightRatio * c.digitHeight
                && share(of: box, inside: c) >= configuration.pieceOverlap
        }
    }

    /// The share (0...1) of `box` inside the claimed place: inside its characters' boxes, or for a detector's
    /// line, inside its quad, whose upright bounding box a slanted line more than fills (a row's box tilted by
    /// 25 degrees takes in the row under it).
    private func share(of box: PixelRect, inside claim: Claim) -> Double {
        guard box.area > 0 else { return 0 }
        guard let q = claim.slanted else { return Double(box.intersection(claim.box).area) / Double(box.area) }
        let n = configuration.pieceSamples
        var inside = 0
        for i in 0..<n {
            let y = Double(box.y) + (Double(i) + 0.5) * Double(box.height) / Double(n) - q.centerY
            for j in 0..<n {
                let x = Double(box.x) + (Double(j) + 0.5) * Double(box.width) / Double(n) - q.centerX
                if abs(x * q.cos + y * q.sin) <= q.halfLength && abs(y * q.cos - x * q.sin) <= q.halfHeight { inside += 1 }
            }
        }
        return Double(inside) / Double(n * n)
    }

    /// Adds a line read from `located`.
    public mutating func add(_ recognized: RecognizedLine, located: TextLine) {
        // Two or more characters that are seven-segment shapes at all (however faint) make this a line of
        // digits; lines of half its height inside it are its digits' halves or segments. Minus signs do not
        // count: two bars of a large, blurred frame read as `--` and would claim the digits inside it.
        let shaped = recognized.characters.lazy.filter { !"?.-".contains($0.character) }.count
        if shaped >= 2 && !recognized.hasGap { claimed.append(Claim(located)) }
        found.append(recognized)
        let noisy = recognized.isTexture ? -configuration.texturePenalty : 0
        quality.append(
            Double(recognized.clearCharacterCount)
                - configuration.unclearCharacterWeight * Double(recognized.unclearCharacterCount)
                + (recognized.hasGap ? -configuration.gapPenalty : 0) + noisy)
    }

    /// The lines kept, in the order they were added; `kept` tells which of the added ones they are (for lists
    /// kept beside them).
    public mutating func select() -> (lines: [RecognizedLine], kept: [Bool]) {
        keep.removeAll(keepingCapacity: true)
        keep.append(contentsOf: repeatElement(true, count: found.count))
        ranked.removeAll(keepingCapacity: true)
        for i in found.indices { ranked.append((quality[i], found[i].digitHeight, i)) }
        ranked.sort { ($0.quality, $0.height) > ($1.quality, $1.height) }
        for n in ranked.indices where keep[ranked[n].index] {
            let i = ranked[n].index
            let a = found[i].boundingBox
            for other in ranked[(n + 1)...] where keep[other.index] {
                let j = other.index
                let b = found[j].boundingBox
                let overlap = Double(a.intersection(b).area)
                let ratio = max(found[i].digitHeight, found[j].digitHeight) / min(found[i].digitHeight, found[j].digitHeight)
                if ratio < configuration.rivalHeightRatio && overlap >= configuration.rivalOverlap * Double(min(a.area, b.area)) {
                    keep[j] = false
                }
            }
        }
        Self.removeAll(from: &found, notKept: keep)
        // Returned sharing the selection's storage: a caller that has let go of them by the next frame has
        // that frame's lines read without allocating them again.
        return (found, keep)
    }

    /// Drops the elements whose `keep` is false, in place, the others in their order.
    public static func removeAll<Element>(from elements: inout [Element], notKept keep: [Bool]) {
        var kept = 0
        for i in elements.indices where keep[i] {
            elements.swapAt(kept, i)
            kept += 1
        }
        elements.removeLast(elements.count - kept)
    }
}
