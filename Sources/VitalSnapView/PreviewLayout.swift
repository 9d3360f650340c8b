import VitalSnapImaging
import VitalSnapOCR

/// The overlay and display window on a preview, in its pixels.
struct PreviewLayout: Encodable {
    var overlay: PixelRect
    var display: PixelRect

    init(_ layout: OverlayLayout) {
        overlay = layout.overlayFrame
        display = layout.displayWindow
    }
}
