import VitalSnapImaging

/// The rule-based reader's way with turned photos (it has no orienter, and its locator finds only roughly level
/// lines): when the photo as it stands gives no value, it is read turned by 180 degrees, then by 90 and 270.
///
/// Many digits read as digits upside down too (0, 1, 2, 5, 6, 8, 9: an 89 turned is a 68), so a turned reading
/// is only taken where the photo as it stands shows nothing that looks like digits at the same place: if it does,
/// the digits are there the right way up but unclear, and turning them would only make up a number; and a value
/// made only of such digits is checked upside down too. A turned value made only of such digits needs digits at
/// the same place the other way up as well (they read either way), which the first rule then refuses: turned,
/// only a 3, 4, 7 or decimal point is evidence. Numeric displays (peripheral type `numericDisplay`) have no
/// plausible range to check a turned reading against and are read only as they stand.
public struct RuleTurnSearch: TurnCheck {
    public struct Configuration: Sendable {
        /// Lines of two turns are at the same place when they overlap by at least this share (0...1) of the
        /// smaller one's box.
        public var samePlaceOverlap = 0.3
        /// A line shows digits when one of its characters is a digit at least this sure (0...1).
        public var digitConfidence = 0.5
        public init() {}
    }

    public var configuration = Configuration()

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    public func check(
        _ asItStands: ReadPass, estimate: OrientationEstimate?, assembler: ReadingAssembler,
        readTurned: (ExifOrientation) throws(ReaderStageError) -> ReadPass
    ) throws(ReaderStageError) -> PhotoResult {
        let upright = asItStands.result
        guard assembler.peripheral.type != .numericDisplay else { return upright }
        if let value = upright.reading?.readingString {
            // Digits that all read as digits upside down too (0 1 2 5 6 8 9) may be a turned photo of another
            // value: 99/89 turned reads 68/66. When the turned photo gives a different plausible value,
            // nothing is read.
            guard value.allSatisfy({ !"347".contains($0) }) else { return upright }
            let turned = try readTurned(.down).result
            if let other = turned.reading?.readingString, other != value {
                return upright.refused(Refusal(.turnsDisagree, "the photo reads \(value) one way up and \(other) the other"))
            }
            return upright
        }
        if case .word = upright.reading?.outcome { return upright }
        // Each orientation read at most once, with its digit lines in the photo's own coordinates.
        let size = asItStands.imageSize
        var analyses: [ExifOrientation: (result: PhotoResult, places: [PixelRect])] = [
            .up: (upright, digitLines(in: asItStands.lines).map(\.boundingBox))
        ]
        func analysis(_ orientation: ExifOrientation) throws(ReaderStageError) -> (result: PhotoResult, places: [PixelRect]) {
            if let done = analyses[orientation] { return done }
            let pass = try readTurned(orientation)
            let lines = digitLines(in: pass.lines)
            let untilt = { (box: PixelRect) in box.turnedBack(orientation, width: size.width, height: size.height) }
            // The value's own lines, mapped back, stand first: they are what the opposite turn is checked at.
            let places = (pass.result.reading?.lines.map(\.boundingBox) ?? []).map(untilt) + lines.map(\.boundingBox).map(untilt)
            analyses[orientation] = (pass.result, places)
            return (pass.result, places)
        }
        var found: [PhotoResult] = []
        for orientation in [ExifOrientation.down, .right, .left] {
            // Sideways only when upside down gave nothing; then both sideways turns, to compare them.
            if orientation == .right && !found.isEmpty { break }
            var (result, places) = try analysis(orientation)
            guard let reading = result.reading, reading.readingString != nil || reading.word != nil else { continue }
            // Where the value was read, the photo turned the opposite way must not show digits too: then the
            // digits may be the right way up there, merely unclear.
            let valuePlaces = places.prefix(reading.lines.count)
            let other = try analysis(orientation.oppositeTurn)
            let clash = other.places.contains { line in
                valuePlaces.contains { place in
                    Double(line.intersection(place).area) >= configuration.samePlaceOverlap * Double(min(line.area, place.area))
                }
            }
            // Unless the value cannot be a turned view of those digits: it shows a 3, 4 or 7 or a decimal point,
            // which read as no digit the other way up, and the other way gives no value at all. A word only
            // when the digits the other way are no possible value either (LO turned is 07, 107 turned is L01).
            let otherHasNoValue = other.result.reading?.readingString == nil
            let unexplained = reading.word != nil
                ? otherHasNoValue && !Self.showsPossibleValue(other.result.reading?.lines ?? [], assembler: assembler)
                : otherHasNoValue && Self.changesUnderAHalfTurn(reading)
            if clash && !unexplained { continue }
            // Digits that read as digits either way up (0 1 2 5 6 8 9) must show as digits the other way up
            // too; where that view sees none, the value is a pattern in noise or texture, not a display.
            if !clash && reading.word == nil && !Self.changesUnderAHalfTurn(reading) { continue }
            result.warnings.append("read turned: the photo was \(orientation == .down ? "upside down" : "sideways")")
            found.append(result)
        }
        if found.count == 1 { return found[0] }
        if found.count > 1 {
            let values = Set(found.compactMap { $0.reading?.readingString ?? $0.reading?.word })
            if values.count == 1 { return found[0] }
            return upright.refused(Refusal(
                .turnsDisagree, "the photo reads differently turned different ways (\(values.sorted().joined(separator: ", ")))"))
        }
        return upright
    }

    /// The lines with a clearly read digit, not texture: digits seen the right way up.
    func digitLines(in lines: [RecognizedLine]) -> [RecognizedLine] {
        lines.filter {
            $0.characters.contains { SegmentAlphabet.isDigit($0.character) && $0.confidence >= configuration.digitConfidence }
                && !$0.isTexture
        }
    }

    /// A value with a character that is no digit when turned by 180 degrees (3, 4 and 7 read as E, h and L; a
    /// decimal point moves to the top of the line), so it cannot be another value seen upside down.
    static func changesUnderAHalfTurn(_ reading: Reading) -> Bool {
        reading.values.contains { $0.text.contains { "347.".contains($0) } }
    }

    /// Whether any of `lines` may show a value of the assembler's peripheral, however unclear: an unreadable
    /// character may be anything, and digits the assembler would take for a field if they were clear are one.
    static func showsPossibleValue(_ lines: [RecognizedLine], assembler: ReadingAssembler) -> Bool {
        lines.contains { line in
            if line.text.contains("?") { return true }
            var clear = line
            clear.hasGap = false
            clear.confidence = 1
            for i in clear.characters.indices { clear.characters[i].confidence = 1 }
            return assembler.peripheral.measurementFields.contains { field in
                if case .success = assembler.value(of: clear, for: field) { return true }
                return false
            }
        }
    }
}
