/// The screen technologies the training scenes draw.
public enum DisplayKind: String, Sendable, Hashable, CaseIterable {
    /// Grey or greenish reflective LCD, dark segments, unlit segments faintly visible.
    case reflectiveLCD = "reflective-lcd"
    /// LCD with a coloured backlight (orange, green, blue, white, ...) behind dark segments.
    case backlitLCD = "backlit-lcd"
    /// Negative LCD: light segments on a dark backlit field.
    case negativeLCD = "negative-lcd"
    /// LED segments (red, green, blue, white, ...) behind a dark filter, with a halo.
    case led
    /// Vacuum fluorescent display: cyan-green glowing segments on a dark field.
    case vfd
    /// Black OLED with coloured digits, often one colour per value.
    case oled
    /// A colour screen drawing its digits with a font, several colours on one screen.
    case colorScreen = "color-screen"
}

/// How a display's field, ink, unlit segments and glass look.
struct DisplayLook: Sendable {
    var kind: DisplayKind
    /// The field at the centre and at the edges (uneven backlight, the recess of a reflective LCD).
    var background: RGBColor
    var backgroundEdge: RGBColor
    /// The default colour of digits, legends and icons.
    var ink: RGBColor
    /// Unlit segments: the fraction of the way from the background to the ink (0: invisible).
    var ghost: Float
    /// Halo of lit segments: amount (0: none) and its blur as a fraction of the stroke width.
    var glow: Float
    var glowSpread: Double
    /// A faint copy of the segments below and right of them (a reflective LCD's segment shadow), in digit
    /// heights (0: none).
    var segmentShadow: Double
    /// Opacity of a light band across the glass (0: none).
    var reflection: Float
}
