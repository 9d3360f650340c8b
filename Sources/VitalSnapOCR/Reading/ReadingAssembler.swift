import Foundation

/// Turns the recognized lines of a frame into a peripheral's reading: which lines are its fields, whether each
/// value is plausible in the unit asked for, and whether the display shows a word instead of a value.
///
/// It prefers saying nothing to saying something wrong: the main value must be the most prominent number on the
/// display, every character of it clearly read, and within the field's range.
public struct ReadingAssembler: Sendable {
    public struct Configuration: Sendable {
        /// On a display of several fields, a number line at least this share (0...1) of the tallest one's digit
        /// height may be a field; smaller lines are clocks, dates and memory numbers. Set by hand on the sample
        /// blood pressure monitors (whose pulse row is about half the systolic's height) and bp-paramed.
        public var fieldHeightShare = 0.45
        /// Two lines are on the same row of the display when they overlap down it by at least this share (0...1)
        /// of the smaller one's height; then they are read left to right.
        public var sameRowOverlap = 0.5
        /// The display's reading direction, which orders its fields, may be off by this much (radians) on a
        /// tilted or turned display: the trained locator gave 87 degrees for a generated oximeter's lines that
        /// run at 66. Where the order of lines on different rows changes within it (their rows lie nearly along
        /// the reading direction, one after the other) and the other order gives every field a plausible value
        /// too, the reading is refused rather than guessed. Where only the other order gives plausible values
        /// (a BP monitor's systolic above its diastolic), that order is read.
        public var readingDirectionTolerance = 25 * Double.pi / 180
        /// A line at least this many times as tall as the value, unread and right beside it, means the value
        /// read is the time or a memory number and the value itself could not be read.
        public var largerNumberRatio = 2.0
        /// A line cut into two values (`splitOnce`: an oximeter's SpO2 and pulse found as one line) must be read
        /// at least this sure (the recognizer's scale), above the reading threshold: where the cut goes is a guess
        /// the digits must leave no room for. Set on the generated families (seed 900001), where the one such line
        /// read wrong scored 0.87 and, of the ten read right, eight scored 0.94 or more and two 0.71.
        public var mergedLineConfidence = 0.9
        /// A value is in doubt where the recognizer gives the text with a `1` before it at least this probability
        /// and that value too is plausible for the field: a thin leading 1 missed changes a weight or a pulse by
        /// 100 (`143.1` read `43.1`). Set on the generated families (2026-11-29): a scale read `14.5` for 114.5
        /// gave the longer text 0.20 to 0.30; at 0.05 it and one read `83.1` for 383.1 are refused at seed 900002,
        /// and nothing else changes at either seed but one `?` scene that later looks then read.
        public var leadingOneDoubt = 0.05
        /// The value lines of one display read along one direction: two of them whose reading directions differ
        /// by more than this (radians) mean one was read turned, and a turned line of symmetric digits reads as
        /// another number (a BP monitor held upside down, its `112` read `211` beside its `92` and `65`). On the
        /// generated families (seed 900001) it refused one wrong oximeter reading and one right one, and with the
        /// closer look (`ReaderStages.closerLocator`) two more wrong ones, upside-down scenes; at seed 900002 it
        /// changed nothing. A single value is held to it too against any other value line as prominent as a
        /// field and read sure (a glucose meter upside down on its box, its `106` read `90` as it stands beside the
        /// box's `106` read turned): that refused two wrong readings of the medical products tilted and upside
        /// down (`Scripts/eval-perturbed.sh`) and changed nothing in the families at either seed or in any folder.
        public var directionSpread = Double.pi / 2
        public init() {}
    }

    public var configuration = Configuration()
    public var peripheral: PeripheralDefinition {
        didSet { fields = peripheral.measurementFields }
    }
    /// The peripheral's measurement fields, picked out once rather than for every frame.
    private(set) var fields: [FieldDefinition]
    /// Whether every value has a plausible range to be checked against, in every unit (not a plain numeric
    /// display's): a wrong text that passes for a value must also fall in its range.
    public var checksEveryValueAgainstARange: Bool {
        fields.allSatisfy { $0.units.allSatisfy { $0.plausibleRange != nil } }
    }
    /// The unit asked for (`mg/dL`, `mmol/L`); nil for the field's default or, where units do not overlap in
    /// range (°C and °F), whichever fits.
    public var unit: String?
    /// Characters less clear than this make a line unusable (the recognizer's scale: `ReaderStages.minimumConfidence`).
    public var minimumConfidence: Double
    /// Lines whose ink is not of the peripheral's polarity are not its fields; off for a recognizer that reads
    /// either polarity (`ReaderStages.checksPolarity`), whose lines' polarity is only an estimate
    /// from the rows around them (a bar between a monitor's rows made a dark row read as light ink).
    public var checksPolarity: Bool

    public init(
        peripheral: PeripheralDefinition, unit: String? = nil,
        minimumConfidence: Double = RuleCharacterRecognizer.minimumReadingConfidence, checksPolarity: Bool = true
    ) {
        self.peripheral = peripheral
        self.fields = peripheral.measurementFields
        self.unit = unit
        self.minimumConfidence = minimumConfidence
        self.checksPolarity = checksPolarity
    }

    public func assemble(_ lines: [RecognizedLine]) -> Reading {
        let recognizedText = Self.recognizedText(of: lines)
        // The tallest of the lines that may be a value (the first of them where several are as tall).
        var tallest: RecognizedLine?
        for line in lines where mayBeValue(line) && line.digitHeight > (tallest?.digitHeight ?? -.infinity) { tallest = line }
        guard let tallest else {
            return Reading(outcome: .none(.noDigitsFound), confidence: 0, recognizedText: recognizedText, lines: [])
        }
        if let word = DisplayWord.word(in: tallest.text) {
            return Reading(outcome: .word(word), confidence: tallest.confidence, recognizedText: recognizedText, lines: [tallest])
        }
        // The value is the largest number on a display: when much larger characters right beside the tallest
        // readable line could not be read, that line is the time or a memory number, not the value.
        if let larger = lines.first(where: { Self.isUnreadLargerNumber($0, beside: tallest, ratio: configuration.largerNumberRatio) }) {
            return Reading(
                outcome: .none(Refusal(.largerCharactersUnread, "larger characters beside \(tallest.text) could not be read")), confidence: 0,
                recognizedText: recognizedText, lines: [larger])
        }
        // The fields are the most prominent lines, read top to bottom then left to right.
        let chosen: [RecognizedLine]
        if fields.count == 1 {
            // A display's lines read one way up: another value line as prominent, read sure the other way, means
            // one of the two was read turned (a glucose meter's `106` upside down read `90` beside the `106` of
            // its box read upright).
            if let other = lines.first(where: { isProminentSureLine($0, beside: tallest) }),
               !Self.readInOneDirection([tallest, other], spread: configuration.directionSpread) {
                var turned = Refusal(.turnsDisagree, "the values read in different directions")
                turned.mayBeReadTurned = tallest.text
                return Reading(outcome: .none(turned), confidence: 0, recognizedText: recognizedText, lines: [tallest, other])
            }
            chosen = [tallest]
        } else {
            let numberLines = lines.filter(mayBeValue).sorted { $0.digitHeight > $1.digitHeight }
            let prominent = numberLines.filter { $0.digitHeight >= configuration.fieldHeightShare * tallest.digitHeight }
            guard prominent.count >= fields.count else {
                if prominent.count == fields.count - 1, let values = splitOnce(prominent) {
                    return Reading(
                        outcome: .values(values), confidence: values.lazy.map { $0.confidence }.min() ?? 0,
                        recognizedText: recognizedText, lines: prominent)
                }
                return Reading(
                    outcome: .none(Refusal(.valuesMissing, "found \(prominent.count) of the \(fields.count) values")),
                    confidence: 0, recognizedText: recognizedText, lines: prominent)
            }
            var ordered = Array(prominent.prefix(fields.count))
            Self.sortInReadingOrder(&ordered, sameRowOverlap: configuration.sameRowOverlap)
            let others = otherPlausibleOrders(of: ordered)
            if let other = others.first {
                // Within the tolerance the order is a guess: taken only where it is the one plausible order (a BP
                // monitor's 79 above 131 read in the other order, 131/79), refused where two are.
                guard others.count == 1, !givesPlausibleValues(ordered) else {
                    let orders = ([ordered] + others).map { $0.map(\.text).joined(separator: "/") }
                    return Reading(
                        outcome: .none(Refusal(.unclearOrder, "the order of the values is unclear: \(orders.joined(separator: " or "))")),
                        confidence: 0, recognizedText: recognizedText, lines: ordered)
                }
                ordered = other
            }
            guard Self.readInOneDirection(ordered, spread: configuration.directionSpread) else {
                return Reading(
                    outcome: .none(Refusal(.turnsDisagree, "the values read in different directions")),
                    confidence: 0, recognizedText: recognizedText, lines: ordered)
            }
            chosen = ordered
        }
        let values: [FieldValue]
        switch self.values(of: chosen) {
        case .success(let read): values = read
        case .failure(let why): return Reading(outcome: .none(why), confidence: 0, recognizedText: recognizedText, lines: chosen)
        }
        let confidence = values.lazy.map { $0.confidence }.min() ?? 0
        return Reading(outcome: .values(values), confidence: confidence, recognizedText: recognizedText, lines: chosen)
    }

    /// The other orders of `ordered` where the display's reading direction turned by up to
    /// `readingDirectionTolerance` either way orders the lines otherwise and that order, too, gives every field a
    /// plausible value in the order the fields allow (none where the order is clear; at most two, each once).
    private func otherPlausibleOrders(of ordered: [RecognizedLine]) -> [[RecognizedLine]] {
        var others: [[RecognizedLine]] = []
        for turn in [-configuration.readingDirectionTolerance, configuration.readingDirectionTolerance] {
            var turned = ordered
            Self.sortInReadingOrder(&turned, sameRowOverlap: configuration.sameRowOverlap, turnedBy: turn)
            guard !Self.sameOrder(turned, ordered), !others.contains(where: { Self.sameOrder($0, turned) }),
                givesPlausibleValues(turned) else { continue }
            others.append(turned)
        }
        return others
    }

    /// The values of `lines`, one per field in this order, or why they are not plausible: the first field's
    /// reason, or the values out of the order their fields allow.
    private func values(of lines: [RecognizedLine]) -> Result<[FieldValue], Refusal> {
        var values: [FieldValue] = []
        for (field, line) in zip(fields, lines) {
            switch value(of: line, for: field) {
            case .success(let v): values.append(v)
            case .failure(let why): return .failure(why)
            }
        }
        guard inOrder(values) else {
            return .failure(Refusal(.implausible, "systolic \(values[0].text) is not above diastolic \(values[1].text)"))
        }
        return .success(values)
    }

    /// Whether `lines`, in this order, give every field a plausible value, in the order the fields allow.
    private func givesPlausibleValues(_ lines: [RecognizedLine]) -> Bool {
        if case .success = values(of: lines) { true } else { false }
    }

    private static func sameOrder(_ a: [RecognizedLine], _ b: [RecognizedLine]) -> Bool {
        !zip(a, b).contains { $0.text != $1.text || $0.corners != $1.corners }
    }

    /// Whether the values are in the order their fields allow: a blood pressure monitor's systolic above its
    /// diastolic.
    private func inOrder(_ values: [FieldValue]) -> Bool {
        !(peripheral.type == .bloodPressureMonitor && values.count >= 2 && values[0].value <= values[1].value)
    }

    /// Two values side by side may be found as one line (an oximeter's SpO2 97 and pulse 76 as `9776`). With one
    /// value line fewer than fields, each line of digits read sure is cut in two at every place where neither
    /// part starts with a 0 (which these fields do not show); the values when exactly one cut, of all lines,
    /// gives every field a plausible value in order (nil otherwise: a merged line is read only where its digits
    /// leave no doubt where the cut is).
    private func splitOnce(_ lines: [RecognizedLine]) -> [FieldValue]? {
        var ordered = lines
        Self.sortInReadingOrder(&ordered, sameRowOverlap: configuration.sameRowOverlap)
        // Each line's value as the field of its place, and as the next field's (after a cut line before it):
        // the same for every cut, so read once.
        let asOwn = ordered.indices.map { value(of: ordered[$0], for: fields[$0]) }
        let asNext = ordered.indices.map { value(of: ordered[$0], for: fields[$0 + 1]) }
        var found: [FieldValue]?
        for (i, merged) in ordered.enumerated() {
            let digits = Array(merged.text)
            guard !merged.hasGap, merged.confidence >= max(minimumConfidence, configuration.mergedLineConfidence),
                  digits.count >= 2, digits[0] != "0", digits.allSatisfy(\.isNumber) else { continue }
            for cut in 1..<digits.count where digits[cut] != "0" {
                let parts = [String(digits[..<cut]), String(digits[cut...])]
                var values: [FieldValue] = []
                for k in fields.indices {
                    let result = switch k {
                    case ..<i: asOwn[k]
                    case i, i + 1: value(text: parts[k - i], confidence: merged.confidence, for: fields[k])
                    default: asNext[k - 1]
                    }
                    guard case .success(let v) = result else { break }
                    values.append(v)
                }
                guard values.count == fields.count, inOrder(values) else { continue }
                if found != nil { return nil }
                found = values
            }
        }
        return found
    }

    /// Whether `line`, not `value`, may be a value as prominent as a field (`fieldHeightShare` of its digit
    /// height) and is read sure.
    private func isProminentSureLine(_ line: RecognizedLine, beside value: RecognizedLine) -> Bool {
        mayBeValue(line) && line.corners != value.corners && line.digitHeight >= configuration.fieldHeightShare * value.digitHeight
            && isReadSure(line)
    }

    /// Every character of `line` clear and the line at the reading threshold.
    private func isReadSure(_ line: RecognizedLine) -> Bool {
        !line.characters.contains(where: { $0.character == "?" }) && line.confidence >= minimumConfidence
    }

    /// Clocks, dates and memory numbers (as the detector tells them) are never a value, nor is ink of the
    /// polarity the peripheral's display does not show (where the recognizer's polarity says so).
    private func mayBeValue(_ line: RecognizedLine) -> Bool {
        line.isNumberLike && line.role != .auxiliary && (!checksPolarity || peripheral.polarity.admits(line.polarity))
    }

    /// The texts of the number-like lines, one a line, top to bottom then left to right (by their boxes'
    /// top-left corners; lines at the same place in the order given). A frame has a few lines, so each next one
    /// is looked for among them all rather than in a sorted copy.
    static func recognizedText(of lines: [RecognizedLine]) -> String {
        var text = ""
        var previous: (y: Int, x: Int, index: Int)?
        while true {
            var next: (y: Int, x: Int, index: Int)?
            for (i, line) in lines.enumerated() where line.isNumberLike {
                let box = line.boundingBox
                let place = (y: box.minY, x: box.minX, index: i)
                if let previous, place <= previous { continue }
                if let n = next, n <= place { continue }
                next = place
            }
            guard let next else { return text }
            if previous != nil { text.append("\n") }
            for c in lines[next.index].characters { text.append(c.character) }
            previous = next
        }
    }

    /// Why a field is not read when the recognizer was unsure of its digits: the one refusal a second recognizer
    /// may overturn (`DisplayReader`).
    static func unclearDigits(of field: FieldDefinition, text: String) -> Refusal {
        Refusal(.unclearDigits, "the digits of \(field.name.rawValue) are unclear (\(text))")
    }

    func value(of line: RecognizedLine, for field: FieldDefinition) -> Result<FieldValue, Refusal> {
        guard !line.hasGap else { return .failure(Refusal(.digitMissing, "a digit of \(field.name.rawValue) is missing")) }
        guard isReadSure(line) else {
            return .failure(Self.unclearDigits(of: field, text: line.text))
        }
        let read = value(text: line.text, confidence: line.confidence, for: field)
        if case .failure(var why) = read, why.reason == .implausible, NumberText(line.text) != nil {
            // Turned over, a value (`801`, a `108` upside down): on a display of one value, whose line is no
            // other field's, the line is upside down. On one of several, it may be another field's value.
            let turned = fields.count == 1 ? TurnedErrorCodeCheck.turnedOver(line.text)?.filter { $0 != "-" } : nil
            let plausible = turned.flatMap { text in
                if case .success = value(text: text, confidence: line.confidence, for: field) { text } else { nil }
            }
            why.readSureAs = SureText(line.text, plausibleTurnedOver: plausible)
            return .failure(why)
        }
        if case .success = read, checksEveryValueAgainstARange, line.leadingOneProbability >= configuration.leadingOneDoubt,
           case .success = value(text: "1" + line.text, confidence: line.confidence, for: field) {
            var doubt = Self.unclearDigits(of: field, text: "\(line.text), or 1\(line.text)")
            doubt.lacksLeadingOne = line.text
            return .failure(doubt)
        }
        return read
    }

    /// The value `text`, read with `confidence`, as `field`'s, or why it is not plausible.
    func value(text shown: String, confidence: Double, for field: FieldDefinition) -> Result<FieldValue, Refusal> {
        // A minus in front of a value that cannot be negative is a bezel edge or a printed line beside it.
        var text = shown
        if field.units.allSatisfy({ ($0.plausibleRange?.lowerBound ?? -1) >= 0 }) {
            while text.hasPrefix("-") { text.removeFirst() }
        }
        // A point read in a row that shows none (a BP monitor's, an oximeter's) is a gap in a segment or a speck:
        // the digits are the value (`1.20` for 120, its italic `1` broken).
        if field.units.allSatisfy({ $0.decimals == 0 }) { text.removeAll { $0 == "." } }
        guard let number = NumberText(text) else {
            return .failure(Refusal(.implausible, "\(shown) is not a number"))
        }
        // Leading zeros are not shown by a measurement field's display (a numeric display's may be).
        let shownDigits = (peripheral.type == .numericDisplay ? number.text : Self.trimmingLeadingZeros(number.text))
            .filter(\.isNumber).count
        guard shownDigits <= field.digits else {
            return .failure(Refusal(.implausible, "\(number.text) has more digits than \(field.name.rawValue) shows (\(field.digits))"))
        }
        let variants: ArraySlice<UnitVariant>
        if let unit {
            guard let i = field.unitIndex(named: unit) else {
                return .failure(Refusal(.implausible, "\(field.name.rawValue) is not shown in \(unit)"))
            }
            variants = field.units[i...i]
        } else if Self.rangesAreDisjoint(field.units) {
            // °C and °F never overlap, so the value tells which one the thermometer shows.
            variants = field.units[...]
        } else {
            // mg/dL and mmol/L do overlap (20-33 reads as either): without a unit asked for, the default.
            variants = field.units.prefix(1)
        }
        var problems: [String] = []
        for variant in variants {
            if let decimals = variant.decimals, decimals != number.decimals {
                problems.append("\(number.text) does not look like \(variant.unit.isEmpty ? "the display's format" : variant.unit) (\(decimals) decimal\(decimals == 1 ? "" : "s") expected)")
                continue
            }
            if let range = variant.plausibleRange, !range.contains(number.value) {
                problems.append("\(number.text) is outside the plausible range \(Self.format(range)) \(variant.unit)")
                continue
            }
            return .success(FieldValue(
                field: field.name, text: variant.decimals == nil ? number.text : Self.trimmingLeadingZeros(number.text),
                value: number.value, unit: variant.unit, decimals: number.decimals, confidence: confidence))
            // A numeric display's text is kept as shown; a measurement drops leading zeros (`098` -> `98`).
        }
        return .failure(Refusal(.implausible, problems.first ?? "implausible value"))
    }

    /// Whether there are two or more units, each with a plausible range, and none of those ranges overlap.
    static func rangesAreDisjoint(_ units: [UnitVariant]) -> Bool {
        for (i, a) in units.enumerated() {
            guard let first = a.plausibleRange else { return false }
            for b in units[(i + 1)...] {
                guard let second = b.plausibleRange, !first.overlaps(second) else { return false }
            }
        }
        return units.count > 1
    }

    static func trimmingLeadingZeros(_ text: String) -> String {
        var t = Substring(text)
        while t.count > 1, t.first == "0", t.dropFirst().first != "." { t = t.dropFirst() }
        return String(t)
    }

    static func format(_ range: ClosedRange<Double>) -> String {
        func f(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
        return "\(f(range.lowerBound))-\(f(range.upperBound))"
    }

    /// An unread line (two or more character cells, not texture) of the same polarity, at least twice as tall
    /// as `line`, apart from it and no further from it than its own height.
    static func isUnreadLargerNumber(
        _ other: RecognizedLine, beside line: RecognizedLine, ratio: Double = Configuration().largerNumberRatio
    ) -> Bool {
        guard !other.isNumberLike, !other.isTexture, other.polarity == line.polarity,
              other.digitHeight >= ratio * line.digitHeight,
              other.characters.lazy.filter({ $0.character != "." }).count >= 2
        else { return false }
        let a = other.boundingBox, b = line.boundingBox
        // A taller line over the number itself is the window or the number taken at a coarser scale.
        guard a.intersection(b).isEmpty else { return false }
        let dx = max(0, max(a.minX, b.minX) - min(a.maxX, b.maxX))
        let dy = max(0, max(a.minY, b.minY) - min(a.maxY, b.maxY))
        return Double(max(dx, dy)) <= other.digitHeight
    }
}
