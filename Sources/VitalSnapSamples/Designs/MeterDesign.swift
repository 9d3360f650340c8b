import Foundation
import VitalSnapOCR

/// The look of one meter model: how its body, display and digits are drawn. Positions (display window,
/// fields) come from the peripheral definition, so a sample lines up with the overlay the reader uses.
public struct MeterDesign: Sendable {
    public var definition: PeripheralDefinition
    /// Folder name for the design's samples (`glucose-g1`, `bp-b3`).
    public var folderName: String

    public var body: BodyShape
    public var bodyShade: Float
    /// Brightness change from top to bottom of the body (0.1: top 5% lighter, bottom 5% darker): moulded
    /// plastic is never lit evenly.
    public var bodyShading: Double
    /// The edge of the body (bevel or seam), which separates it from the table.
    public var rimShade: Float
    /// The frame around the display window.
    public var bezelShade: Float
    /// Bezel width as a fraction of the display's shorter side.
    public var bezelMargin: Double

    public var displayShade: Float
    public var inkShade: Float
    /// Range of ghost levels (grey levels between unlit segments and background) a sample draws from.
    public var ghostRange: ClosedRange<Double>
    /// Halo strength around lit segments of backlit / LED displays (0 for reflective LCDs).
    public var glow: Double
    public var segmentStyle: SegmentStyle
    /// Style of the small clock and date digits.
    public var smallSegmentStyle: SegmentStyle
    public var letterI: LetterIStyle

    /// Printed legends and icons inside the display window (boxes relative to the window).
    public var displayDecorations: [Decoration]
    /// Logo, buttons, ports on the body (boxes relative to the whole device).
    public var bodyDecorations: [Decoration]

    public var darkOnLight: Bool { inkShade < displayShade }

    /// "glucose meter", "blood pressure monitor", ... as used in the labels' device column.
    public var deviceNoun: String {
        switch definition.type {
        case .glucoseMeter: "glucose meter"
        case .bloodPressureMonitor: "blood pressure monitor"
        case .thermometer: "thermometer"
        case .weightScale: "weight scale"
        case .pulseOximeter: "pulse oximeter"
        case .numericDisplay: "numeric display"
        }
    }

    /// "glucose meter (VitalSnap Samples Glucose G1)": the definition's name without its parenthetical note.
    public var deviceDescription: String {
        var model = definition.model
        if let open = model.firstIndex(of: "(") { model = String(model[..<open]).trimmingCharacters(in: .whitespaces) }
        return "\(deviceNoun) (\(definition.manufacturer) \(model))"
    }
}

/// The outline of a device body.
public enum BodyShape: Sendable, Hashable {
    /// Corner radius as a fraction of the shorter side.
    case roundedRectangle(cornerRadius: Double)
    /// A stick thermometer: metal probe tip on the left, body widening to the right.
    case stick
}

/// A small mark on a device: printed legend, icon, button.
public struct Decoration: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// Small print, fitted into the box.
        case label(String)
        case battery
        case heart
        /// A blood drop (glucose meters).
        case drop
        /// A vertical bar graph with `levels` steps, the lower `lit` of them on (oximeter pulse strength).
        case barGraph(levels: Int, lit: Int)
        /// A round push button.
        case button
        /// A dark slot (test strip port).
        case port
        /// A printed horizontal line across the middle of the box.
        case rule
        /// A light diagonal band (reflection in a glass top), drawn with low opacity.
        case reflection
        /// A rounded plate (metal electrode of a body-fat scale).
        case plate
    }

    public var kind: Kind
    public var box: RelativeRect
    /// Grey level; nil draws in the display's ink (for display decorations) or a darker body shade.
    public var shade: Float?
    public var opacity: Float

    public init(_ kind: Kind, _ x: Double, _ y: Double, _ width: Double, _ height: Double, shade: Float? = nil, opacity: Float = 1) {
        self.kind = kind
        self.box = RelativeRect(x: x, y: y, width: width, height: height)
        self.shade = shade
        self.opacity = opacity
    }
}
