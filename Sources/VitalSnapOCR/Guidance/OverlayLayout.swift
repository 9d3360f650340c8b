import VitalSnapImaging

/// Where a peripheral's overlay sits on a camera preview, in preview pixels: the counterpart of the mobile
/// SDK's `configureForPreviewLayerSize:` and `overlayFrame`.
///
/// The overlay image (aspect ratio `overlay.aspectRatio`) is aspect-fitted into the preview less an inset on
/// every side and centred: a portrait overlay in a landscape preview is limited by the height, a landscape
/// overlay in a portrait preview by the width. The display window is `overlay.display` placed in the overlay
/// frame, and each field with a `box` is that box placed in the display window (generic peripherals have no
/// boxes). Everything is computed in floating point from the preview size and rounded once per edge (to the
/// nearest pixel), so neighbouring rectangles share edges exactly and nothing accumulates rounding error.
/// When the preview shows the camera frame one to one, the rectangles are frame pixels too.
public struct OverlayLayout: Sendable, Hashable {
    /// One field's box in preview pixels.
    public struct FieldBox: Sendable, Hashable {
        public var field: FieldName
        public var rect: PixelRect

        public init(field: FieldName, rect: PixelRect) {
            self.field = field
            self.rect = rect
        }
    }

    public var previewWidth: Int
    public var previewHeight: Int
    /// Margin kept free on every side, in pixels.
    public var inset: Int
    /// The overlay image's rectangle.
    public var overlayFrame: PixelRect
    /// The display window's rectangle: where the device's display should be held.
    public var displayWindow: PixelRect
    /// The boxes of the fields that have one, in definition order (measurement fields and time/date alike).
    public var fieldBoxes: [FieldBox]

    /// The default inset: 5 % of the preview's shorter side.
    public static let defaultInsetFraction = 0.05

    /// Lays out `peripheral`'s overlay on a `previewWidth` x `previewHeight` preview, keeping
    /// `insetFraction` of the preview's shorter side free on every side.
    public init(
        previewWidth: Int, previewHeight: Int, peripheral: PeripheralDefinition,
        insetFraction: Double = OverlayLayout.defaultInsetFraction
    ) {
        precondition(previewWidth >= 0 && previewHeight >= 0, "negative preview size")
        precondition(insetFraction >= 0 && insetFraction < 0.5, "the inset must be a fraction of the shorter side below one half")
        self.previewWidth = previewWidth
        self.previewHeight = previewHeight
        let W = Double(previewWidth), H = Double(previewHeight)
        let inset = (insetFraction * min(W, H)).rounded()
        self.inset = Int(inset)

        let availableWidth = max(0, W - 2 * inset), availableHeight = max(0, H - 2 * inset)
        let aspect = peripheral.overlay.aspectRatio
        var w = availableWidth, h = availableHeight
        if aspect > 0, availableHeight > 0 {
            if availableWidth / availableHeight > aspect {
                w = availableHeight * aspect  // height-limited
            } else {
                h = availableWidth / aspect  // width-limited
            }
        }
        let overlay = (x: (W - w) / 2, y: (H - h) / 2, width: w, height: h)
        overlayFrame = Self.pixelRect(overlay)

        let display = peripheral.overlay.display.placed(in: overlay)
        displayWindow = Self.pixelRect(display)

        var boxes: [FieldBox] = []
        for field in peripheral.fields {
            guard let box = field.box else { continue }
            boxes.append(FieldBox(field: field.name, rect: Self.pixelRect(box.placed(in: display))))
        }
        fieldBoxes = boxes
    }

    /// The box of `field`, when the peripheral defines one.
    public func box(of field: FieldName) -> PixelRect? {
        fieldBoxes.first { $0.field == field }?.rect
    }

    /// A rectangle with edges rounded to the nearest pixel.
    static func pixelRect(_ r: (x: Double, y: Double, width: Double, height: Double)) -> PixelRect {
        let x0 = Int(r.x.rounded()), y0 = Int(r.y.rounded())
        let x1 = Int((r.x + r.width).rounded()), y1 = Int((r.y + r.height).rounded())
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
}
