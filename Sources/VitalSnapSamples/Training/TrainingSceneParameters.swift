/// Every range, probability and threshold of the training-set generator, in one place.
///
/// Distances "in digit heights" are relative to the line concerned; "px" are final image pixels. The
/// standard values aim at the photos the reader meets (see Training/README.md and the reference folders in
/// shared/data): mostly phone photos of one meter, and the crops other data sets are made of.
public struct TrainingSceneParameters: Sendable {
    // MARK: Framing

    /// How often each framing is drawn (weights, normalised when drawn).
    public var framingWeights: [Weighted<TrainingFraming>] = [
        .init(.room, 0.27), .init(.closeUp, 0.31), .init(.displayCrop, 0.1), .init(.lineCrop, 0.15),
        .init(.fieldCrop, 0.07), .init(.noDisplay, 0.04),
    ]
    /// Long side of photo framings (room, close-up, no display): most 320-1024, some up to 1600, a few small.
    public var photoLongSide: [Weighted<ClosedRange<Double>>] = [
        .init(320...1024, 0.72), .init(1024...1600, 0.14), .init(160...320, 0.14),
    ]
    /// Aspect ratios (width over height) of photos; `oddAspect` is drawn with the remaining weight.
    public var photoAspects: [Weighted<Double>] = [
        .init(4.0 / 3, 0.3), .init(16.0 / 9, 0.12), .init(1, 0.1), .init(3.0 / 4, 0.22), .init(9.0 / 16, 0.12),
    ]
    public var oddAspectWeight = 0.14
    public var oddAspect: ClosedRange<Double> = 0.5...2.2
    /// Room photos: the device's larger side over the frame's matching side.
    public var roomDeviceFill: ClosedRange<Double> = 0.25...0.8
    /// Fixed installations (fuel pumps, electricity and panel meters) are photographed up close: a room
    /// framing drawn for one becomes a close-up with this chance, and otherwise shows a wall or a cabinet.
    public var installationCloseUpChance = 0.6
    /// Room photos: the least the display window's width may take of the frame's shorter side.
    public var roomWindowFill: ClosedRange<Double> = 0.1...0.3
    /// Close-ups: the display window's fill of the frame (above 1 the window runs past the frame).
    public var closeUpWindowFill: ClosedRange<Double> = 0.45...0.95
    /// Display crops (400x480-like, as the Paramed set): size and window fill.
    public var displayCropWidth: ClosedRange<Double> = 300...520
    public var displayCropAspect: ClosedRange<Double> = 0.7...1.1
    public var displayCropFill: ClosedRange<Double> = 0.88...1.12
    /// Line crops (200x31-like, as the electricity meter set): digit height in px, and the margins around the
    /// line's quad in digit heights (across, along).
    public var lineCropDigitHeight: ClosedRange<Double> = 14...60
    public var lineCropMarginAcross: ClosedRange<Double> = 0.04...0.45
    public var lineCropMarginAlong: ClosedRange<Double> = 0.05...1.2
    /// Field crops (185x100-like, as the binarised BP fields): width in px, the field's fill, and how many are
    /// thresholded to pure black and white (white digits).
    public var fieldCropWidth: ClosedRange<Double> = 120...260
    public var fieldCropFill: ClosedRange<Double> = 0.78...1.0
    public var fieldCropBinarizedChance = 0.8
    /// Their local threshold: window radius in digit heights, deviation factor and least contrast (grey levels).
    public var binarizeRadius: ClosedRange<Double> = 0.4...1.0
    public var binarizeDeviation: ClosedRange<Double> = 0.1...0.45
    public var binarizeContrast: ClosedRange<Double> = 5...14
    /// Chance that the framed region is pushed partly out of the frame (lines cut by the frame are unreadable).
    public var cutOffChance = 0.12
    /// How far past the frame edge a cut region reaches, as a fraction of its size.
    public var cutOffAmount: ClosedRange<Double> = 0.05...0.45
    /// Pose, degrees: in-plane tilt (most photos), the wide tilt of a few, and perspective.
    public var tilt: ClosedRange<Double> = -12...12
    public var wideTiltChance = 0.12
    public var wideTilt: ClosedRange<Double> = -45...45
    public var perspective: ClosedRange<Double> = -28...28
    /// Pose of crops (line, field, display crops are cut square-on from photos).
    public var cropTilt: ClosedRange<Double> = -3...3
    public var cropPerspective: ClosedRange<Double> = -8...8
    /// Chance of a quarter turn (then 90, 180 or 270 degrees, equally likely); crops turn less often.
    public var quarterTurnChance = 0.28
    public var cropQuarterTurnChance = 0.18

    // MARK: Devices and displays

    /// How often each kind of device is drawn.
    public var programWeights: [Weighted<DeviceProgram>] = [
        .init(.glucose, 0.16), .init(.bloodPressure, 0.17), .init(.thermometer, 0.09), .init(.scale, 0.07),
        .init(.oximeter, 0.12), .init(.electricityMeter, 0.1), .init(.fuelPump, 0.09), .init(.panelMeter, 0.12),
        .init(.multimeter, 0.08),
    ]
    /// Display technologies drawn, where narrower than each program's own (`TrainingFamily.displayKinds`);
    /// nil: every one its program has.
    public var displayKindFilter: Set<DisplayKind>?
    /// Main digit height in device units (everything else on a device is sized relative to it).
    public var mainDigitHeight = 40.0
    /// Seven-segment styles: bar thickness, gap, slant (a share upright), width, and end shapes.
    public var segmentThickness: ClosedRange<Double> = 0.07...0.2
    public var segmentGap: ClosedRange<Double> = 0...0.05
    public var slant: ClosedRange<Double> = 0...0.25
    public var uprightChance = 0.45
    public var glyphWidthRatio: ClosedRange<Double> = 0.42...0.66
    /// Cell pitch beyond the glyph width, in digit heights.
    public var cellSpacing: ClosedRange<Double> = 0.1...0.42
    public var segmentShapeWeights: [Weighted<SegmentShape>] = [.init(.hexagon, 0.5), .init(.square, 0.3), .init(.rounded, 0.2)]
    /// Unlit segments, as a fraction of the ink contrast: from invisible to strong.
    public var ghost: ClosedRange<Double> = 0...0.35
    public var invisibleGhostChance = 0.3
    /// LCDs whose segments are faded towards their field (old panels, steep viewing angles): how often and by
    /// how much.
    public var fadedInkChance = 0.3
    public var fadedInk: ClosedRange<Double> = 0.1...0.45
    /// Brightness of an LCD's field at its darker edge relative to its centre (uneven backlight, the recess
    /// of a reflective panel; reflective panels stay above 0.72).
    public var fieldEdgeShade: ClosedRange<Double> = 0.6...0.95
    /// A reflective LCD's segment shadow (offset in digit heights), and a light band across the glass.
    public var segmentShadowChance = 0.5
    public var segmentShadow: ClosedRange<Double> = 0.015...0.04
    public var glassReflectionChance = 0.35
    public var glassReflection: ClosedRange<Double> = 0.04...0.16
    /// Colour screens and OLEDs that draw digits with a font rather than segments.
    public var fontDigitsChance = 0.5
    public var fontWeight: ClosedRange<Double> = 0.09...0.2
    /// Of those, a dot-matrix font rather than strokes.
    public var dotMatrixChance = 0.3
    /// The least contrast ratio (WCAG 2's, of relative luminances) a colour screen's value colour keeps against
    /// its field: 3, WCAG's floor for large text. Each value of a colour screen is drawn in a colour of its own,
    /// chosen for dark fields (yellow, green, cyan, white); on a light field such a colour is darkened until it
    /// reaches this, as a light screen's designer would pick a dark ink (a white `166` on a pale grey field is no
    /// display's).
    public var minimumValueInkContrast = 3.0
    /// LED displays that are dot-matrix panels.
    public var ledDotMatrixChance = 0.12
    /// A word (`LO`, `HI`, `Err`, `---`, `E1`) instead of the main value of a medical device (the counters never
    /// show one). At 0.07, 2.4% of the scenes had a word, and the trained reader found no `HI` and misread `LO`
    /// and `Err` on the sample glucose meter; 0.2 gives about 7%.
    public var wordChance = 0.2
    /// Clock, date and memory lines on medical displays that can have them.
    public var clockChance = 0.45
    public var dateChance = 0.4
    public var memoryChance = 0.18
    /// Printed rules between a blood pressure monitor's rows.
    public var ruleChance = 0.3
    /// Auxiliary digit height over the main digit height.
    public var auxiliaryScale: ClosedRange<Double> = 0.26...0.5
    /// Legend cap height over the main digit height, and legends printed in a box (an inverted `SYS` tag).
    public var legendScale: ClosedRange<Double> = 0.14...0.3
    public var legendPlateChance = 0.08
    /// Counters (electricity meters): a smaller last digit after the point, its size.
    public var smallLastDigitChance = 0.45
    public var smallLastDigitScale: ClosedRange<Double> = 0.55...0.78

    // MARK: Photo

    /// Camera blur sigma (px); it is capped per scene so that the main digits stay legible.
    public var blur: ClosedRange<Double> = 0.3...2.0
    /// The blur cap: at most this fraction of the main digits' stroke width (px).
    public var maxBlurOverMainStroke = 0.3
    /// Sensor noise (grey levels, before the blur) and its colour part (fraction of it).
    public var noise: ClosedRange<Double> = 0.5...7
    public var chromaNoise: ClosedRange<Double> = 0.1...0.5
    public var jpegQuality: ClosedRange<Double> = 30...95
    /// Glare: how often it is on the display away from digits, over a digit, on the body; none otherwise.
    public var glareBesideChance = 0.2
    public var glareOverDigitChance = 0.1
    public var glareBodyChance = 0.15
    /// Glare elongation (long over short radius) away from digits.
    public var glareElongation: ClosedRange<Double> = 1...3.5
    /// Glare size over the display height (beside, body) and over the covered cell (over a digit).
    public var glareSize: ClosedRange<Double> = 0.08...0.3
    public var glareOverDigitSize: ClosedRange<Double> = 0.6...1.3
    public var glareStrength: ClosedRange<Double> = 0.45...0.95
    /// Crops (line, field, display) get glare this much less often.
    public var cropGlareFactor = 0.4
    /// Uneven light, vignetting, exposure and white balance (per-channel gain spread).
    public var lightStrength: ClosedRange<Double> = 0...0.45
    public var vignette: ClosedRange<Double> = 0...0.5
    public var exposure: ClosedRange<Double> = 0.72...1.18
    public var whiteBalance: ClosedRange<Double> = -0.09...0.09
    /// Soft shadow under the device.
    public var shadow: ClosedRange<Double> = 0.1...0.5
    /// Clutter on the surface of room photos and close-ups.
    public var clutterChance = 0.45

    // MARK: Readability

    /// Lines smaller than this (digit height, px) are marked unreadable.
    public var minimumReadableDigitHeight = 6.0
    /// Lines whose stroke is thinner than this many blur sigmas are marked unreadable. At 1.6 it marked scenes
    /// `?` whose rows a person reads: ten of the 1,200 validation scenes of seed 900001 (eight bp-lcd, two
    /// bp-color), each plainly readable, its digits faint but whole, and fourteen of seed 900002's bp-lcd and
    /// bp-color, ten of them plainly readable and four with a small faint pulse row read with effort. At 0.8 it
    /// marks none of them (nor does 0): a floor for blurs beyond those rendered now. A `?` counts any reading
    /// wrong, so a label too quick to say `?` counted right readings wrong.
    public var minimumStrokeOverBlur = 0.8
    /// Glare that pulls a character's cell this far towards white (anywhere on its inner part) hides it.
    public var glareHidesAt = 0.45

    // MARK: Line crops

    /// Crops per readable reading line: one, and a second with this chance.
    public var secondCropChance = 0.5
    /// Detector-like errors of the crop's quad, in digit heights (angle in degrees).
    public var cropShiftAlong = 0.1
    public var cropShiftAcross = 0.08
    public var cropHeightScale: ClosedRange<Double> = 0.85...1.2
    public var cropAngle = 3.0
    public var cropExtend: ClosedRange<Double> = 0...0.6
    public var cropPullIn: ClosedRange<Double> = 0...0.1
    /// Extending a crop's end stops this far (digit heights) before another digit line.
    public var cropClearance = 0.2
    /// Empty-text crops per scene: of a unit label or icon, and of a background patch.
    public var labelCropChance = 0.45
    public var backgroundCropChance = 0.3
    /// No empty-text crops of legends or icons smaller than this (height, px).
    public var minimumLabelCropHeight = 5.0

    public init() {}

    public static let standard = TrainingSceneParameters()
}

/// A choice and its weight.
public struct Weighted<Value: Sendable>: Sendable {
    public var value: Value
    public var weight: Double

    public init(_ value: Value, _ weight: Double) {
        self.value = value
        self.weight = weight
    }
}

extension SampleRandom {
    /// One of the values, with probability proportional to its weight.
    mutating func pick<T>(_ options: [Weighted<T>]) -> T {
        precondition(!options.isEmpty, "pick from an empty list")
        let total = options.reduce(0) { $0 + $1.weight }
        var u = unit() * total
        for option in options {
            if u < option.weight { return option.value }
            u -= option.weight
        }
        return options[options.count - 1].value
    }
}
