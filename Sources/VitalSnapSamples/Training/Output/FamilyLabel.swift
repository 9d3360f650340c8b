import VitalSnapOCR

/// A family scene's row of `labels.tsv` (`file reading match peripheral unit`, as `vitalsnap eval` reads it):
/// the values of the family's peripheral joined with `/`, the word the display shows instead, or `?` where no
/// value may be read (a value line hidden by glare, cut by the frame or too small; a field the layout lacks).
enum FamilyLabel {
    static let header = "file\treading\tmatch\tperipheral\tunit"

    /// A family and the measurements its peripheral reads (`fields(of:)`), looked up once per set.
    struct Labelling: Sendable {
        var family: TrainingFamily
        var fields: [String]
    }

    /// One scene's row.
    struct Row: Sendable {
        var reading: String
        var line: String
    }

    /// The measurements the family's peripheral reads, in its catalog's order (the order `eval` joins them in).
    static func fields(of family: TrainingFamily) throws(CatalogError) -> [String] {
        guard let peripheral = try PeripheralCatalog.builtIn()[family.peripheralID] else {
            throw .invalid(family.peripheralID, "no built-in peripheral for the \(family.rawValue) family")
        }
        return peripheral.fields.filter(\.name.isMeasurement).map(\.name.rawValue)
    }

    /// Nil for a scene that shows no display. `fields`: `fields(of: family)`.
    static func row(for scene: TrainingScene, file: String, family: TrainingFamily, fields: [String]) -> Row? {
        let values = scene.lines.filter { $0.role == .value }
        guard !values.isEmpty else { return nil }
        let reading = reading(values, fields: fields)
        return Row(reading: reading, line: "\(file)\t\(reading)\texact\t\(family.peripheralID)\t\(unit(scene, family: family))")
    }

    static func reading(_ values: [TrainingLine], fields: [String]) -> String {
        if values.count == 1, let word = VitalSnapOCR.DisplayWord.word(in: values[0].text) {
            return values[0].readable ? word : "?"
        }
        var texts: [String] = []
        for field in fields {
            guard let line = values.first(where: { $0.field == field }), line.readable,
                VitalSnapOCR.DisplayWord.word(in: line.text) == nil, Double(line.text) != nil else { return "?" }
            texts.append(line.text)
        }
        return texts.joined(separator: "/")
    }

    /// The unit the display shows, as `eval`'s unit column names it (empty: the peripheral's only one).
    static func unit(_ scene: TrainingScene, family: TrainingFamily) -> String {
        let value = scene.lines.first { $0.role == .value }?.text ?? ""
        switch family {
        case .glucose: return value.contains(".") ? "mmol/L" : "mg/dL"
        // The generator's Celsius and Fahrenheit ranges do not meet (32-42.9 and 90-109.9).
        case .thermometer: return (Double(value) ?? 0) >= 50 ? "F" : "C"
        case .scale: return scene.lines.contains { $0.role == .unit && $0.text == "lb" } ? "lb" : "kg"
        case .bloodPressureLCD, .bloodPressureColor: return "mmHg"
        case .oximeter: return ""
        }
    }
}
