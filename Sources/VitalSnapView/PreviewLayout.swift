import VitalSnapImaging
import VitalSnapOCR

/// The overlay and display window on a preview, in its pixels.
struct PreviewLayout: Encodable {
    var overlay: ViewRect
    var display: ViewRect

    init(_ layout: OverlayLayout) {
        func rect(_ r: PixelRect) -> ViewRect { ViewRect(x: r.x, y: r.y, width: r.width, height: r.height) }
        overlay = rect(layout.overlayFrame)
        display = rect(layout.displayWindow)
    }
}
