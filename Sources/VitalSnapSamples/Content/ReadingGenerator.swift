import VitalSnapOCR

/// Draws plausible display contents for a peripheral: values in realistic ranges (always inside the
/// definition's plausible range), with the cases that trip readers over-represented: 3-digit values with a
/// leading 1, internal zeros (105, 10.4, 100.5), 2-digit values with a blank leading cell, round values.
///
/// Values are generated as integers in units of the displayed precision, so the text and the reading string
/// are exact and never depend on floating-point formatting.
public enum ReadingGenerator {
    /// A random reading for every measurement field, plus a random clock and date when the display has them.
    public static func random(for definition: PeripheralDefinition, random: inout SampleRandom) -> DisplayContent {
        var scaled: [FieldName: Int] = [:]
        for field in definition.measurementFields {
            let unit = field.units[0]
            scaled[field.name] = randomScaledValue(field: field.name, unit: unit, digits: field.digits, given: scaled, random: &random)
        }
        return content(for: definition, scaledValues: scaled, random: &random)
    }

    /// The display showing explicit values (in units of 10^-decimals, e.g. 56 for 5.6 mmol/L).
    public static func content(
        for definition: PeripheralDefinition, scaledValues: [FieldName: Int], random: inout SampleRandom
    ) -> DisplayContent {
        var texts = auxiliaryTexts(for: definition, random: &random)
        var parts: [String] = []
        var ordered: [Int] = []
        for field in definition.measurementFields {
            let value = scaledValues[field.name] ?? 0
            let text = format(scaled: value, decimals: field.units[0].decimals ?? 0)
            texts[field.name] = text
            parts.append(text)
            ordered.append(value)
        }
        return DisplayContent(
            texts: texts, reading: parts.joined(separator: "/"), unit: primaryUnit(of: definition), word: nil,
            scaledValues: ordered)
    }

    /// The display showing a word (`LO`, `HI`, `Err`) in its first measurement field; the reading is the word.
    public static func word(
        _ word: DisplayWord, for definition: PeripheralDefinition, random: inout SampleRandom
    ) -> DisplayContent {
        var texts = auxiliaryTexts(for: definition, random: &random)
        if let field = definition.measurementFields.first { texts[field.name] = word.rawValue }
        return DisplayContent(
            texts: texts, reading: word.rawValue, unit: primaryUnit(of: definition), word: word, scaledValues: [])
    }

    /// `56, decimals 1` -> `5.6`; `120, 0` -> `120`.
    public static func format(scaled: Int, decimals: Int) -> String {
        guard decimals > 0 else { return String(scaled) }
        var p = 1
        for _ in 0..<decimals { p *= 10 }
        let whole = scaled / p, frac = abs(scaled % p)
        let fracText = String(frac)
        return "\(whole).\(String(repeating: "0", count: decimals - fracText.count))\(fracText)"
    }

    public static func primaryUnit(of definition: PeripheralDefinition) -> String {
        definition.measurementFields.first?.units.first?.unit ?? ""
    }

    /// One value, in units of 10^-decimals. `given` holds fields drawn earlier (diastolic stays below systolic).
    static func randomScaledValue(
        field: FieldName, unit: UnitVariant, digits: Int, given: [FieldName: Int], random: inout SampleRandom
    ) -> Int {
        let decimals = unit.decimals ?? 0
        let scale = Double(pow10(decimals))
        var value: Double
        switch (field, unit.unit) {
        case (.bloodGlucose, "mmol/L"):
            value = weighted(&random, [
                (0.55, { $0.uniform(3.5...13.9) }),
                (0.15, { $0.pick([10.0, 20.0]) + Double($0.int(0...9)) / 10 }),  // internal zero, 3 digits
                (0.15, { Double($0.int(2...9)) }),  // round: x.0
                (0.15, { $0.chance(0.5) ? $0.uniform(1.1...3.4) : $0.uniform(14...33.3) }),
            ])
        case (.bloodGlucose, _):
            value = weighted(&random, [
                (0.45, { $0.uniform(70...250) }),
                (0.15, { r in  // leading 1 and an internal zero: 100-109, 110, 120 ... 190
                    r.chance(0.5) ? Double(r.int(100...109)) : Double(r.int(11...19) * 10) }),
                (0.05, { Double($0.pick([200, 300, 400]) + $0.int(0...9)) }),
                (0.15, { $0.uniform(40...99) }),  // 2 digits: one blank cell
                (0.12, { $0.uniform(250...450) }),
                (0.08, { $0.chance(0.5) ? $0.uniform(20...39) : $0.uniform(451...600) }),
            ])
        case (.systolic, _):
            value = weighted(&random, [
                (0.7, { $0.uniform(95...175) }),
                (0.15, { Double($0.int(100...109)) }),
                (0.15, { $0.chance(0.3) ? $0.uniform(70...94) : $0.uniform(176...230) }),
            ])
        case (.diastolic, _):
            let systolic = Double(given[.systolic] ?? 130)
            let high = min(115, systolic - 20)
            value = random.chance(0.1) && high >= 100 ? Double(random.int(100...Int(high))) : random.uniform(min(50, high)...high)
        case (.pulse, _):
            value = weighted(&random, [
                (0.75, { $0.uniform(52...99) }),
                (0.15, { Double($0.int(100...109)) }),
                (0.1, { $0.chance(0.5) ? $0.uniform(40...51) : $0.uniform(110...150) }),
            ])
        case (.temperature, _):
            value = weighted(&random, [
                (0.7, { $0.uniform(35.8...38.2) }),
                (0.1, { Double($0.int(35...39)) }),  // x.0
                (0.2, { $0.chance(0.5) ? $0.uniform(38.2...41.5) : $0.uniform(33...35.8) }),
            ])
        case (.weight, _):
            value = weighted(&random, [
                (0.65, { $0.uniform(45...99.9) }),
                (0.15, { $0.uniform(100...109.9) }),  // 4 digits with an internal zero
                (0.1, { $0.uniform(110...180) }),
                (0.1, { $0.uniform(3...20) }),  // child or pet: blank leading cells
            ])
        case (.spo2, _):
            value = weighted(&random, [
                (0.7, { Double($0.int(94...99)) }),
                (0.12, { _ in 100 }),
                (0.18, { $0.chance(0.7) ? Double($0.int(85...93)) : Double($0.int(60...84)) }),
            ])
        default:
            value = random.uniform(1...99)
        }
        var scaled = Int((value * scale).rounded())
        if let range = unit.plausibleRange {
            scaled = min(max(scaled, Int((range.lowerBound * scale).rounded(.up))), Int((range.upperBound * scale).rounded(.down)))
        }
        // Never more digits than the field has cells.
        scaled = min(scaled, pow10(digits) - 1)
        return scaled
    }

    /// Clock and date of the displays that show them (auxiliary fields).
    static func auxiliaryTexts(for definition: PeripheralDefinition, random: inout SampleRandom) -> [FieldName: String] {
        var texts: [FieldName: String] = [:]
        for field in definition.fields {
            switch field.name {
            case .time:
                let hour = random.int(0...23), minute = random.int(0...59)
                // Some clocks blank the leading zero of the hour (" 9:05"), others show it ("09:05").
                let hourText = hour < 10 && random.chance(0.5) ? String(hour) : two(hour)
                texts[.time] = "\(hourText):\(two(minute))"
            case .date:
                let month = random.int(1...12), day = random.int(1...28)
                texts[.date] = "\(two(month))-\(two(day))"
            default: break
            }
        }
        return texts
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }

    static func pow10(_ n: Int) -> Int { (0..<max(0, n)).reduce(1) { r, _ in r * 10 } }

    /// Picks one generator by weight and runs it.
    private static func weighted(
        _ random: inout SampleRandom, _ options: [(Double, (inout SampleRandom) -> Double)]
    ) -> Double {
        let total = options.reduce(0) { $0 + $1.0 }
        var u = random.unit() * total
        for (weight, make) in options {
            if u < weight { return make(&random) }
            u -= weight
        }
        return options[options.count - 1].1(&random)
    }
}
