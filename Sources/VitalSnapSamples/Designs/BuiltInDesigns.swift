import VitalSnapOCR

/// The six sample meters, one per model-specific peripheral definition (ids 101-106).
///
/// Each differs in what a reader must cope with: dark or light body, slanted or upright digits, hexagonal or
/// square segments, faint ghost segments, printed legends next to the digits, backlit and LED displays.
extension MeterDesign {
    /// The ids of the definitions that have a sample design.
    public static let designedPeripheralIDs = [101, 102, 103, 104, 105, 106]

    /// The design for a definition, or nil when it is generic or has no sample design.
    public static func builtIn(for definition: PeripheralDefinition) -> MeterDesign? {
        switch definition.id {
        case 101: glucoseG1(definition)
        case 102: glucoseG2(definition)
        case 103: bloodPressureB3(definition)
        case 104: thermometerT1(definition)
        case 105: scaleS1(definition)
        case 106: oximeterO1(definition)
        default: nil
        }
    }

    /// The designs for every definition of the catalog that has one, in id order.
    public static func all(in catalog: PeripheralCatalog) -> [MeterDesign] {
        catalog.peripherals.compactMap(builtIn(for:))
    }

    /// Light grey meter, dark bezel, slanted hexagonal digits, mg/dL legend, clock and date below the value.
    static func glucoseG1(_ d: PeripheralDefinition) -> MeterDesign {
        MeterDesign(
            definition: d, folderName: "glucose-g1",
            body: .roundedRectangle(cornerRadius: 0.22), bodyShade: 205, bodyShading: 0.12, rimShade: 150,
            bezelShade: 78, bezelMargin: 0.07,
            displayShade: 186, inkShade: 40, ghostRange: 0...10, glow: 0,
            segmentStyle: SegmentStyle(thickness: 0.13, gap: 0.018, slant: 0.09, ends: .hexagon, widthRatio: 0.55),
            smallSegmentStyle: SegmentStyle(thickness: 0.15, gap: 0.025, slant: 0.09, ends: .hexagon, widthRatio: 0.55),
            letterI: .left,
            displayDecorations: [
                Decoration(.battery, 0.82, 0.08, 0.13, 0.09),
                Decoration(.drop, 0.85, 0.26, 0.07, 0.13),
                Decoration(.label("mg/dL"), 0.80, 0.52, 0.17, 0.12),
            ],
            bodyDecorations: [
                Decoration(.label("VITALSNAP"), 0.22, 0.575, 0.56, 0.035, shade: 95),
                Decoration(.label("G1"), 0.44, 0.625, 0.12, 0.025, shade: 120),
                Decoration(.button, 0.32, 0.70, 0.36, 0.12, shade: 168),
                Decoration(.port, 0.36, 0.955, 0.28, 0.02, shade: 35),
            ])
    }

    /// Dark meter, black bezel, upright thick digits in mmol/L with a decimal point, clock and date on top.
    static func glucoseG2(_ d: PeripheralDefinition) -> MeterDesign {
        MeterDesign(
            definition: d, folderName: "glucose-g2-mmol",
            body: .roundedRectangle(cornerRadius: 0.16), bodyShade: 72, bodyShading: 0.2, rimShade: 42,
            bezelShade: 30, bezelMargin: 0.06,
            displayShade: 176, inkShade: 36, ghostRange: 0...8, glow: 0,
            segmentStyle: SegmentStyle(thickness: 0.15, gap: 0.022, slant: 0, ends: .hexagon, widthRatio: 0.54),
            smallSegmentStyle: SegmentStyle(thickness: 0.16, gap: 0.03, slant: 0, ends: .hexagon, widthRatio: 0.55),
            letterI: .likeOne,
            displayDecorations: [
                Decoration(.battery, 0.015, 0.28, 0.1, 0.08),
                Decoration(.drop, 0.035, 0.45, 0.06, 0.12),
                Decoration(.label("mmol/L"), 0.68, 0.845, 0.28, 0.1),
            ],
            bodyDecorations: [
                Decoration(.label("VITALSNAP"), 0.2, 0.58, 0.6, 0.04, shade: 200),
                Decoration(.button, 0.14, 0.70, 0.3, 0.1, shade: 110),
                Decoration(.button, 0.56, 0.70, 0.3, 0.1, shade: 110),
                Decoration(.port, 0.34, 0.955, 0.32, 0.02, shade: 15),
            ])
    }

    /// White monitor, three lines (SYS, DIA, pulse) with legends and printed rules between them.
    static func bloodPressureB3(_ d: PeripheralDefinition) -> MeterDesign {
        MeterDesign(
            definition: d, folderName: "bp-b3",
            body: .roundedRectangle(cornerRadius: 0.12), bodyShade: 226, bodyShading: 0.1, rimShade: 165,
            bezelShade: 118, bezelMargin: 0.04,
            displayShade: 182, inkShade: 38, ghostRange: 0...12, glow: 0,
            segmentStyle: SegmentStyle(thickness: 0.12, gap: 0.02, slant: 0.1, ends: .hexagon, widthRatio: 0.56),
            smallSegmentStyle: SegmentStyle(thickness: 0.13, gap: 0.02, slant: 0.1, ends: .hexagon, widthRatio: 0.56),
            letterI: .likeOne,
            displayDecorations: [
                Decoration(.label("SYS"), 0.04, 0.08, 0.14, 0.08),
                Decoration(.label("mmHg"), 0.04, 0.19, 0.14, 0.05),
                Decoration(.rule, 0.03, 0.36, 0.94, 0.012, opacity: 0.7),
                Decoration(.label("DIA"), 0.04, 0.43, 0.14, 0.08),
                Decoration(.label("mmHg"), 0.04, 0.54, 0.14, 0.05),
                Decoration(.rule, 0.03, 0.725, 0.94, 0.012, opacity: 0.7),
                Decoration(.label("PUL/min"), 0.04, 0.82, 0.3, 0.07),
                Decoration(.heart, 0.41, 0.8, 0.09, 0.11),
            ],
            bodyDecorations: [
                Decoration(.label("VITALSNAP B3"), 0.07, 0.865, 0.28, 0.03, shade: 120),
                Decoration(.button, 0.41, 0.835, 0.18, 0.13, shade: 95),
                Decoration(.button, 0.72, 0.86, 0.14, 0.08, shade: 185),
            ])
    }

    /// Stick thermometer: metal tip, small display, °C legend.
    static func thermometerT1(_ d: PeripheralDefinition) -> MeterDesign {
        MeterDesign(
            definition: d, folderName: "thermometer-t1",
            body: .stick, bodyShade: 236, bodyShading: 0.18, rimShade: 172,
            bezelShade: 150, bezelMargin: 0.08,
            displayShade: 184, inkShade: 44, ghostRange: 0...6, glow: 0,
            segmentStyle: SegmentStyle(thickness: 0.13, gap: 0.02, slant: 0.06, ends: .hexagon, widthRatio: 0.55),
            smallSegmentStyle: SegmentStyle(thickness: 0.13, gap: 0.02, slant: 0.06, ends: .hexagon, widthRatio: 0.55),
            letterI: .likeOne,
            displayDecorations: [
                Decoration(.label("°C"), 0.81, 0.14, 0.15, 0.26),
            ],
            bodyDecorations: [
                Decoration(.button, 0.27, 0.36, 0.055, 0.28, shade: 200),
                Decoration(.label("VITALSNAP"), 0.345, 0.46, 0.13, 0.08, shade: 150),
            ])
    }

    /// Bathroom scale: dark glass platform, backlit display with light digits, metal electrode plates.
    static func scaleS1(_ d: PeripheralDefinition) -> MeterDesign {
        MeterDesign(
            definition: d, folderName: "scale-s1",
            body: .roundedRectangle(cornerRadius: 0.06), bodyShade: 58, bodyShading: 0.15, rimShade: 105,
            bezelShade: 28, bezelMargin: 0.1,
            displayShade: 22, inkShade: 214, ghostRange: 2...10, glow: 0.35,
            segmentStyle: SegmentStyle(thickness: 0.12, gap: 0.025, slant: 0, ends: .hexagon, widthRatio: 0.52),
            smallSegmentStyle: SegmentStyle(thickness: 0.12, gap: 0.025, slant: 0, ends: .hexagon, widthRatio: 0.52),
            letterI: .likeOne,
            displayDecorations: [
                Decoration(.label("kg"), 0.925, 0.66, 0.065, 0.22),
            ],
            bodyDecorations: [
                Decoration(.reflection, 0.0, 0.0, 1.0, 1.0, shade: 255, opacity: 0.07),
                Decoration(.label("VITALSNAP"), 0.38, 0.31, 0.24, 0.03, shade: 150),
                Decoration(.plate, 0.1, 0.62, 0.3, 0.3, shade: 165),
                Decoration(.plate, 0.6, 0.62, 0.3, 0.3, shade: 165),
            ])
    }

    /// Finger oximeter: mid-grey clip, black LED display, square segments that glow, legends, pulse bar.
    static func oximeterO1(_ d: PeripheralDefinition) -> MeterDesign {
        MeterDesign(
            definition: d, folderName: "oximeter-o1",
            body: .roundedRectangle(cornerRadius: 0.34), bodyShade: 150, bodyShading: 0.22, rimShade: 100,
            bezelShade: 22, bezelMargin: 0.06,
            displayShade: 12, inkShade: 226, ghostRange: 0...6, glow: 0.45,
            segmentStyle: SegmentStyle(thickness: 0.14, gap: 0.03, slant: 0.1, ends: .rectangle, widthRatio: 0.54),
            smallSegmentStyle: SegmentStyle(thickness: 0.14, gap: 0.03, slant: 0.1, ends: .rectangle, widthRatio: 0.54),
            letterI: .likeOne,
            displayDecorations: [
                Decoration(.label("%SpO2"), 0.72, 0.08, 0.25, 0.09),
                Decoration(.barGraph(levels: 6, lit: 4), 0.8, 0.22, 0.08, 0.26),
                Decoration(.label("PRbpm"), 0.72, 0.56, 0.25, 0.09),
                Decoration(.heart, 0.77, 0.72, 0.1, 0.13),
            ],
            bodyDecorations: [
                Decoration(.button, 0.42, 0.75, 0.16, 0.1, shade: 92),
                Decoration(.label("VITALSNAP"), 0.27, 0.9, 0.46, 0.035, shade: 215),
            ])
    }
}
