/// What part of the scene a training image shows.
public enum TrainingFraming: String, Sendable, Hashable, CaseIterable {
    /// The whole device in a room-scale photo, on a surface with other things around it.
    case room
    /// A close-up of the display: the window fills much of the frame, the body around it.
    case closeUp = "close-up"
    /// A crop of the display window (400x480-like).
    case displayCrop = "display-crop"
    /// A tight crop of one line (200x31-like).
    case lineCrop = "line-crop"
    /// A crop of one value field (185x100-like), mostly thresholded to black and white.
    case fieldCrop = "field-crop"
    /// Surroundings only: no display at all.
    case noDisplay = "no-display"

    /// Crops are cut square-on from a photo; they get little perspective and no clutter.
    var isCrop: Bool { self == .displayCrop || self == .lineCrop || self == .fieldCrop }
}
