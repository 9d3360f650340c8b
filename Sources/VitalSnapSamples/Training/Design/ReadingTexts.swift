import Foundation

/// Random texts for the lines of training displays: measurements in realistic ranges (formatted as the
/// display shows them), clocks, dates, memory numbers and the words meters show instead of a value.
///
/// Every text uses only the recognizer's alphabet (`RecognizerAlphabet`).
enum ReadingTexts {
    /// What a value line measures, with the range and decimals its display shows.
    enum Quantity: Sendable {
        case glucoseMgdl, glucoseMmol, systolic, diastolic, pulse, spo2, temperatureC, temperatureF, weightKg, weightLb
        /// A meter's counter: `digits` cells, leading zeros shown, `decimals` after the point.
        case counter(digits: Int, decimals: Int)
        /// A reading with `decimals` decimals and at most `digits` digits, maybe negative.
        case general(digits: Int, decimals: Int, signed: Bool)

        /// Value range and decimals of the medical quantities.
        var range: (ClosedRange<Double>, decimals: Int)? {
            switch self {
            case .glucoseMgdl: (20...600, 0)
            case .glucoseMmol: (1.1...33.3, 1)
            case .systolic: (70...230, 0)
            case .diastolic: (40...130, 0)
            case .pulse: (38...180, 0)
            case .spo2: (70...100, 0)
            case .temperatureC: (32.0...42.9, 1)
            case .temperatureF: (90.0...109.9, 1)
            case .weightKg: (2.0...180.0, 1)
            case .weightLb: (5.0...399.9, 1)
            case .counter, .general: nil
            }
        }
    }

    /// Words shown in place of a value (alphabet letters only: `LO` is written with the letter O).
    static let words = ["LO", "Lo", "HI", "Err", "---", "E1", "E2", "E3", "E4", "E5", "E6", "E9", "Er", "HI", "LO"]

    /// A value's text. A third of the medical values come from the most common part of their range
    /// (resting pulse, normal temperature), the rest spread over the whole range.
    static func value(_ quantity: Quantity, random: inout SampleRandom) -> String {
        switch quantity {
        case .counter(let digits, let decimals):
            // Leading zeros shown: 005693, 0012.34. Small counts are common (a fresh meter, a short sale).
            let magnitude = random.int(1...max(1, digits))
            var text = ""
            for i in 0..<digits {
                let shown = i >= digits - magnitude
                text.append(shown ? Character(String(random.int((i == digits - magnitude ? 1 : 0)...9))) : "0")
                if decimals > 0 && i == digits - decimals - 1 { text.append(".") }
            }
            return text
        case .general(let digits, let decimals, let signed):
            let wholeDigits = max(1, digits - decimals)
            var whole = String(random.int(0...(pow10(random.int(1...wholeDigits)) - 1)))
            if random.chance(0.25) && whole.count < wholeDigits { whole = "0" + whole }  // 078.3
            var text = whole
            if decimals > 0 {
                text += "." + (0..<decimals).map { _ in String(random.int(0...9)) }.joined()
            }
            if signed && random.chance(0.4) { text = "-" + text }
            return text
        default:
            let (range, decimals) = quantity.range!
            let typical: ClosedRange<Double>? = switch quantity {
            case .glucoseMgdl: 70...180
            case .glucoseMmol: 4...10
            case .systolic: 100...150
            case .diastolic: 60...95
            case .pulse: 55...95
            case .spo2: 94...99
            case .temperatureC: 35.8...37.8
            case .temperatureF: 96.5...100
            default: nil
            }
            let v = typical.map { random.chance(0.35) ? random.uniform($0) : random.uniform(range) } ?? random.uniform(range)
            return format(v, decimals: decimals)
        }
    }

    /// `v` with `decimals` decimals, written with integers only so the text never depends on formatting.
    static func format(_ v: Double, decimals: Int) -> String {
        let p = pow10(decimals)
        let scaled = Int((abs(v) * Double(p)).rounded())
        let sign = v < 0 && scaled != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(scaled) }
        let frac = String(scaled % p)
        return "\(sign)\(scaled / p).\(String(repeating: "0", count: decimals - frac.count))\(frac)"
    }

    /// A time of day: `12:44`, `2:44` (blank leading hour digit) or `02:44`; 12- or 24-hour.
    static func clock(random: inout SampleRandom) -> String {
        let hour = random.chance(0.5) ? random.int(1...12) : random.int(0...23)
        let minute = random.int(0...59)
        let hourText = hour < 10 && random.chance(0.6) ? String(hour) : two(hour)
        return "\(hourText):\(two(minute))"
    }

    /// A date: month and day (or day and month) with a dash or a point: `12-22`, `12.22`, `3-14`.
    static func date(random: inout SampleRandom) -> String {
        let a = random.int(1...12), b = random.int(1...31)
        let first = random.chance(0.5) ? a : min(b, 28)
        let second = first == a ? b : a
        let firstText = first < 10 && random.chance(0.4) ? String(first) : two(first)
        return firstText + (random.chance(0.55) ? "-" : ".") + two(second)
    }

    /// A memory, user or record number: `3`, `12`, `120`.
    static func memory(random: inout SampleRandom) -> String {
        String(random.chance(0.5) ? random.int(1...9) : random.int(10...(random.chance(0.7) ? 99 : 250)))
    }

    /// Seven-segment cells a text needs (points, colons and date dashes take none).
    static func cellsNeeded(_ text: String) -> Int {
        FieldCells.layout(text, cellCount: 64).map { $0.count - $0.prefix { $0.character == " " }.count } ?? text.count
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }

    static func pow10(_ n: Int) -> Int { (0..<max(0, n)).reduce(1) { r, _ in r * 10 } }
}
