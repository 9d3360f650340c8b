import VitalSnapOCR

/// How a line's characters stand out from their field.
public enum LinePolarity: String, Sendable, Hashable {
    case darkOnLight = "dark-on-light"
    case lightOnDark = "light-on-dark"
}

/// One annotated text element of a training scene, in final image pixels (after pose and quarter turn).
public struct TrainingLine: Sendable {
    public var role: SceneTextRole
    /// The measurement a value line shows (`systolic`, `bloodGlucose`, ...; `FieldName` raw values).
    public var field: String?
    /// What a reader should report (reading roles), the printed text (units) or empty (icons).
    public var text: String
    /// False where glare hides a character, the frame cuts the line, or it is too small or blurred to read.
    public var readable: Bool
    /// The characters' quad in reading order (continuous pixel coordinates).
    public var quad: LineQuad
    public var digitHeight: Double
    public var polarity: LinePolarity
}

/// A rendered training scene: the colour photo and what is on it.
public struct TrainingScene: Sendable {
    public var width: Int
    public var height: Int
    /// Interleaved 8-bit RGB, `width * height * 3` bytes.
    public var rgb: [UInt8]
    public var jpegQuality: Int
    public var quarterTurns: Int
    public var lines: [TrainingLine]
    /// The display window's corners (its own top-left first), or nil when the scene has no display.
    public var display: [Point]?
    /// Short description of how the scene was made, in a fixed key order.
    public var style: [(key: String, value: StyleValue)]
}

/// A value of a scene's style description.
public enum StyleValue: Sendable, Equatable {
    case text(String)
    case number(Double)
    case flag(Bool)
    case color([Int])
    case colors([[Int]])
}
