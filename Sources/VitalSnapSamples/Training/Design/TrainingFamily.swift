/// The families of home medical displays (`../shared/reference/medical-displays.md`) that the generator draws
/// one at a time, for a validation set per family: `vitalsnap samples training-set --family NAME` renders
/// only that family, framed as a patient photographs it, and writes a `labels.tsv` that `vitalsnap eval`
/// reads (`FamilyLabel`).
public enum TrainingFamily: String, Sendable, Hashable, CaseIterable {
    /// Upper-arm and wrist monitors: SYS, DIA and PULSE stacked on an LCD, with a clock, memory marks, icons.
    case bloodPressureLCD = "bp-lcd"
    /// Colour-screen monitors: TFT or OLED, digits drawn with a font (proportional or dot-matrix), one colour
    /// per value.
    case bloodPressureColor = "bp-color"
    /// One large value, mg/dL or mmol/L, with date and time lines.
    case glucose
    /// Stick and infrared thermometers, °C or °F.
    case thermometer
    /// Bathroom scales: large digits with a decimal point, kg or lb.
    case scale
    /// Fingertip oximeters: SpO2 and pulse side by side or stacked, often turned.
    case oximeter

    /// The kind of device the family is.
    public var program: DeviceProgram {
        switch self {
        case .bloodPressureLCD, .bloodPressureColor: .bloodPressure
        case .glucose: .glucose
        case .thermometer: .thermometer
        case .scale: .scale
        case .oximeter: .oximeter
        }
    }

    /// The display technologies of the family, where it is narrower than its program's (nil: all of them).
    public var displayKinds: Set<DisplayKind>? {
        switch self {
        case .bloodPressureLCD: [.reflectiveLCD, .backlitLCD, .negativeLCD]
        case .bloodPressureColor: [.colorScreen, .oled]
        default: nil
        }
    }

    /// The built-in peripheral that reads the family (`vitalsnap peripherals`).
    public var peripheralID: Int {
        switch self {
        case .bloodPressureLCD, .bloodPressureColor: 2
        case .glucose: 9
        case .thermometer: 1
        case .scale: 5
        case .oximeter: 6
        }
    }

    /// `base` drawing only this family, framed as a photo of the device or of its display (no line or field
    /// crops, no scene without a display: each scene must show the whole reading). The frame cuts no display:
    /// the generator marks every value of a cut display unreadable, even where only its edge is cut, and a
    /// label must say what a reader can read.
    public func parameters(from base: TrainingSceneParameters = .standard) -> TrainingSceneParameters {
        var p = base
        p.programWeights = [.init(program, 1)]
        p.displayKindFilter = displayKinds
        p.framingWeights = base.framingWeights.filter { [.room, .closeUp, .displayCrop].contains($0.value) }
        p.cutOffChance = 0
        if self == .bloodPressureColor { p.fontDigitsChance = 1 }
        return p
    }
}
