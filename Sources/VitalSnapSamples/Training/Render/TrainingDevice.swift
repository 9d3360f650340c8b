import VitalSnapOCR

/// One drawing step of a device: shapes (each a list of contours filled together) painted as one element.
struct PaintOp: Sendable {
    enum Paint: Sendable {
        case solid(RGBColor)
        /// A linear gradient between two device points.
        case gradient(RGBColor, CanvasPoint, RGBColor, CanvasPoint)
        /// Light added around the shapes (lit segments' halo): colour, amount, blur sigma in device units.
        case glow(RGBColor, amount: Float, sigma: Double)
    }

    var shapes: [[[CanvasPoint]]]
    var paint: Paint
    var opacity: Float = 1
}

/// A text element of a device (reading line, legend, icon) in device units.
struct DeviceTextElement: Sendable {
    var role: SceneTextRole
    var field: FieldName?
    var text: String
    /// The characters' quad in reading order, and each character's cell (glare and frame-cut tests).
    var quad: QuadCorners
    var cells: [QuadCorners]
    /// Stroke width, device units.
    var strokeWidth: Double
    var ink: RGBColor
    var background: RGBColor
    /// A value line's whole field, blank cells included (what a field crop frames).
    var fieldBox: QuadCorners
}

/// A random device, flat, in device units with its bounding box from (0, 0): what to paint and what is
/// written where. The scene renderer puts it through the camera pose.
struct TrainingDevice: Sendable {
    var program: DeviceProgram
    var look: DisplayLook
    var font: LineFont
    var width: Double
    var height: Double
    /// The body's outline (its shadow).
    var outline: [CanvasPoint]
    /// The display window.
    var window: QuadCorners
    var ops: [PaintOp]
    var elements: [DeviceTextElement]
    var bodyColor: RGBColor
    /// The main value's digit height in device units.
    var mainDigitHeight: Double
}
