public struct OverlayGeometry: Codable, Sendable, Hashable {
    /// Width over height of the overlay image.
    public var aspectRatio: Double
    /// The display window within the overlay image.
    public var display: RelativeRect

    public init(aspectRatio: Double, display: RelativeRect) {
        self.aspectRatio = aspectRatio
        self.display = display
    }
}
