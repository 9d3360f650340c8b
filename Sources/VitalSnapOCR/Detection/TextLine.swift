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

    public var boundingBox: PixelRect {
        candidates.dropFirst().reduce(candidates.first?.box ?? .zero) { $0.union($1.box) }
    }
}
