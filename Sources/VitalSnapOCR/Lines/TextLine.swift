import Foundation
import VitalSnapImaging

/// A straight run of similar-sized character candidates: where one number (or word) sits in the image.
/// Geometry is in full-image pixels: the line's centre, its direction, its length and the digit height.
public struct TextLine: Sendable, Hashable {
    public var candidates: [CharacterCandidate]
    public var polarity: InkPolarity
    /// Midpoint of the line (halfway between the first and last candidates, halfway up the digits).
    public var centerX: Double
    public var centerY: Double
    /// Direction of reading, in radians from the x axis (small: lines are roughly horizontal).
    public var angle: Double
    /// Distance along the line from the first candidate's left edge to the last one's right edge.
    public var length: Double
    public var digitHeight: Double
    /// Whether the candidates are blobs that are characters. A line found from a row profile has one box
    /// over its whole extent instead, which says nothing about where its characters are.
    public var candidatesAreCharacters = true
    /// What the line is, where the locator knows (a trained detector); nil otherwise.
    public var role: LineRole? = nil

    /// The candidates' union; without candidates (a trained detector's line), the box around its geometry.
    public var boundingBox: PixelRect {
        guard let first = candidates.first else { return PixelRect(enclosing: quad) }
        return candidates.dropFirst().reduce(first.box) { $0.union($1.box) }
    }

    /// The line's corners in reading order.
    public var quad: LineQuad {
        LineQuad(center: Point(x: centerX, y: centerY), angle: angle, length: length, digitHeight: digitHeight)
    }
}
