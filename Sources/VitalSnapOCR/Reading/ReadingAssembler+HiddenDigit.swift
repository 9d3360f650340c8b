extension ReadingAssembler {
    /// Whether a digit hidden at `side` of the number of `reading.lines[index]` (under glare beside it) could make
    /// another plausible value of that line's field in the unit read: a pulse of `99` may be `199`, an SpO2 of
    /// `94` has no `194` nor `940`, a weight of `32.5` may be `132.5` but `149.5` has no room for another digit.
    /// After the number, a digit, or a point and a digit where the number shows none. True wherever it cannot be
    /// told: a numeric display (its values have no range), a reading whose lines are not one value each.
    public func digitMayHide(_ side: GlareCover.Side, of index: Int, in reading: Reading) -> Bool {
        guard peripheral.type != .numericDisplay, case .values(let values) = reading.outcome,
              values.count == reading.lines.count, values.indices.contains(index),
              let field = fields.first(where: { $0.name == values[index].field })
        else { return true }
        let shown = values[index]
        func plausible(_ text: String) -> Bool {
            guard case .success(let other) = value(text: text, confidence: shown.confidence, for: field) else { return false }
            return other.unit == shown.unit
        }
        switch side {
        case .before:
            return (1...9).contains { plausible("\($0)\(shown.text)") }
        case .after:
            return (0...9).contains { plausible("\(shown.text)\($0)") || (!shown.text.contains(".") && plausible("\(shown.text).\($0)")) }
        }
    }
}
