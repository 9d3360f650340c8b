import VitalSnapImaging

/// Crops camera frames to the overlay's display window plus a margin, so the reader only searches where the
/// user holds the display: a guided capture.
///
/// The crop goes into `image`, whose storage is reused: once it has held the largest crop, cropping allocates
/// nothing (as long as no copy of `image` is kept between crops). Every crop returns its rectangle in frame
/// coordinates; `frameRect(fromCrop:in:)` and `framePoint(fromCrop:in:)` map results found in the crop back.
public struct DisplayCropper: Sendable {
    /// Added on each side of the window, as a share of the window's width (left, right) and height (top, bottom).
    public var marginFraction: Double
    /// The last crop.
    public private(set) var image = GrayImage(width: 0, height: 0)
    /// The last crop's rectangle in frame coordinates (`.zero` before the first crop or when the window missed
    /// the frame).
    public private(set) var cropRect = PixelRect.zero

    public static let defaultMarginFraction = 0.1

    public init(marginFraction: Double = DisplayCropper.defaultMarginFraction) {
        precondition(marginFraction >= 0, "negative margin")
        self.marginFraction = marginFraction
    }

    /// The rectangle a crop of `window` takes from a frame with `bounds`: the window grown by the margin on
    /// every side (rounded to the nearest pixel), clipped to the frame; `.zero` when nothing is left.
    public func cropRect(for window: PixelRect, in bounds: PixelRect) -> PixelRect {
        guard !window.isEmpty else { return .zero }
        let dx = Int((marginFraction * Double(window.width)).rounded())
        let dy = Int((marginFraction * Double(window.height)).rounded())
        return window.insetBy(dx: -dx, dy: -dy).intersection(bounds)
    }

    /// Crops `frame` to `window` (frame pixels) plus the margin into `image`; returns the crop's rectangle.
    @discardableResult
    public mutating func crop(_ frame: GrayImage, window: PixelRect) -> PixelRect {
        cropRect = cropRect(for: window, in: frame.bounds)
        frame.crop(cropRect, into: &image)
        return cropRect
    }

    /// Crops `frame` to `layout`'s display window plus the margin. When the frame's size differs from the
    /// layout's preview size (a preview shown smaller or larger than the frame, same aspect ratio), the window is
    /// scaled to the frame first.
    @discardableResult
    public mutating func crop(_ frame: GrayImage, layout: OverlayLayout) -> PixelRect {
        crop(frame, window: Self.window(of: layout, inFrameWidth: frame.width, height: frame.height))
    }

    /// `layout`'s display window scaled from its preview to a `width` x `height` frame.
    public static func window(of layout: OverlayLayout, inFrameWidth width: Int, height: Int) -> PixelRect {
        let w = layout.displayWindow
        guard layout.previewWidth != width || layout.previewHeight != height else { return w }
        guard layout.previewWidth > 0, layout.previewHeight > 0 else { return .zero }
        let sx = Double(width) / Double(layout.previewWidth), sy = Double(height) / Double(layout.previewHeight)
        return OverlayLayout.pixelRect(
            (x: Double(w.x) * sx, y: Double(w.y) * sy, width: Double(w.width) * sx, height: Double(w.height) * sy))
    }

    /// A rectangle found in the crop `crop` (as returned by a crop), in frame coordinates.
    public static func frameRect(fromCrop rect: PixelRect, in crop: PixelRect) -> PixelRect {
        PixelRect(x: rect.x + crop.x, y: rect.y + crop.y, width: rect.width, height: rect.height)
    }

    /// A point found in the crop `crop`, in frame coordinates.
    public static func framePoint(fromCrop point: Point, in crop: PixelRect) -> Point {
        Point(x: point.x + Double(crop.x), y: point.y + Double(crop.y))
    }
}
