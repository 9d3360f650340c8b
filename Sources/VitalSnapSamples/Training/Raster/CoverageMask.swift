/// The coverage (0...1) of one drawing element over the part of a canvas it touches.
///
/// Every element of a colour scene (a line's lit segments, its ghosts, a body, a label) is drawn once into a
/// mask with the grey polygon filler and then blended into the three colour planes in its colour, so the
/// geometry code is shared with the grey renderer and overlapping shapes of one element do not darken twice.
struct CoverageMask {
    /// The mask's top-left pixel in canvas coordinates.
    private(set) var x0: Int
    private(set) var y0: Int
    /// Coverage, `width x height` pixels from (x0, y0).
    private(set) var coverage: FloatCanvas

    /// An empty mask over the pixels the contours can touch, grown by `padding` pixels, within the canvas.
    init?(covering shapes: [[[CanvasPoint]]], canvasWidth: Int, canvasHeight: Int, padding: Int = 0) {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for shape in shapes {
            for contour in shape {
                for p in contour {
                    minX = Swift.min(minX, p.x); maxX = Swift.max(maxX, p.x)
                    minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y)
                }
            }
        }
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return nil }
        let ax = Swift.max(0, Int(minX.rounded(.down)) - padding), ay = Swift.max(0, Int(minY.rounded(.down)) - padding)
        let bx = Swift.min(canvasWidth, Int(maxX.rounded(.up)) + padding)
        let by = Swift.min(canvasHeight, Int(maxY.rounded(.up)) + padding)
        guard bx > ax, by > ay else { return nil }
        x0 = ax
        y0 = ay
        coverage = FloatCanvas(width: bx - ax, height: by - ay)
        for shape in shapes { add(shape) }
    }

    var width: Int { coverage.width }
    var height: Int { coverage.height }

    /// Adds one shape (its contours filled together, even-odd, so an inner contour is a hole).
    mutating func add(_ contours: [[CanvasPoint]]) {
        let dx = Double(x0), dy = Double(y0)
        coverage.fill(contours: contours.map { $0.map { CanvasPoint($0.x - dx, $0.y - dy) } }, value: 1)
    }

    /// Blurs the coverage (a glow or a soft shadow); the mask should have been padded by about 3 sigma.
    mutating func blur(sigma: Double) { coverage.gaussianBlur(sigma: sigma) }
}
