import Testing
@testable import VitalSnapOCR

/// A plain numeric display's tilted readings are taken only where another reading bears them out
/// (`NumericLookTerms`): the first look's digits, or an earlier tilted look's text.
struct NumericLookTermsTests {
    static func refused(seeing text: String) -> PhotoResult {
        let why = text.isEmpty ? Refusal(.noDigits, "no digits found") : Refusal(.unclearDigits, "the digits of value are unclear (\(text))")
        return PhotoResult(file: "meter.png", reading: Reading(outcome: .none(why), confidence: 0, recognizedText: text, lines: []))
    }

    static func read(_ text: String) -> PhotoResult {
        let value = FieldValue(field: .value, text: text, value: Double(text) ?? 0, unit: "", decimals: 0, confidence: 0.95)
        return PhotoResult(file: "meter.png", reading: Reading(outcome: .values([value]), confidence: 0.95, recognizedText: text, lines: []))
    }

    /// Whether each of `tilted`, read at the tilts in turn, is taken after a first look that saw `seen`.
    static func taken(_ tilted: [PhotoResult], seeing seen: String, applies: Bool = true) -> [Bool] {
        var terms = NumericLookTerms(after: refused(seeing: seen), applies: applies)
        return tilted.map { terms.takes($0) }
    }

    @Test func theFirstLooksDigitsReadSurelyAreTaken() {
        #expect(Self.taken([Self.read("589.1")], seeing: "589.1") == [true])
        #expect(Self.taken([Self.read("2200")], seeing: "22.00") == [true], "the same digits, the point aside")
    }

    @Test func aPieceOfTheLineIsNeverTakenEvenTwice() {
        #expect(Self.taken([Self.read("01"), Self.read("01")], seeing: "0113018") == [false, false])
    }

    @Test func aReadingOfItsOwnIsTakenOnlyWhenAnotherTiltReadsItToo() {
        let tilts = ["09", "109.1", "109.7", "109.1"].map(Self.read)
        #expect(Self.taken(tilts, seeing: "") == [false, false, false, true], "another text is no second reading")
    }

    @Test func digitsChangedOrAddedNeedASecondTiltToo() {
        #expect(Self.taken([Self.read("160")], seeing: "167") == [false])
        #expect(Self.taken([Self.read("131"), Self.read("131")], seeing: "13") == [false, true])
    }

    /// A line seen askew, its level crop cutting the last digit: the first look's `222.0` unsure, a tilt's
    /// `222.00` sure. More decimals after the same whole part and decimals are taken; a digit added before the
    /// point, a changed decimal, or decimals added to a first look without a point are not.
    @Test func moreDecimalsAfterTheFirstLooksAreTaken() {
        #expect(Self.taken([Self.read("222.00")], seeing: "222.0") == [true])
        #expect(Self.taken([Self.read("54.805")], seeing: "54.8") == [true])
        #expect(Self.taken([Self.read("1222.0")], seeing: "222.0") == [false], "a digit before the point")
        #expect(Self.taken([Self.read("222.10")], seeing: "222.0") == [false], "a decimal changed")
        #expect(Self.taken([Self.read("222.0")], seeing: "222") == [false], "the first look saw no point")
        #expect(Self.taken([Self.read("0.53")], seeing: ".5") == [false], "no whole part seen")
    }

    @Test func theWiderTiltsAreAskedOnlyWhereNothingWasSeenOrAReadingAwaitsASecond() {
        let wider = NumericLookTerms.tiltsAlwaysAsked
        var unsure = NumericLookTerms(after: Self.refused(seeing: "4303"), applies: true)
        #expect(unsure.asks(tiltAt: 0) && unsure.asks(tiltAt: wider - 1))
        #expect(!unsure.asks(tiltAt: wider), "the first look's digits, and nothing read tilted since")
        let taken = unsure.takes(Self.read("4308"))
        #expect(!taken)
        #expect(unsure.asks(tiltAt: wider), "a reading awaits a second")
        let blank = NumericLookTerms(after: Self.refused(seeing: ""), applies: true)
        #expect(blank.asks(tiltAt: wider))
        let medical = NumericLookTerms(after: Self.refused(seeing: "4303"), applies: false)
        #expect(medical.asks(tiltAt: 5))
    }

    @Test func aLongCropIsNotTiltedSteeply() {
        let steep = 45 * Double.pi / 180, mild = 30 * Double.pi / 180
        let line = NumericLookTerms(after: Self.refused(seeing: ""), applies: true, imageWidth: 200, imageHeight: 31)
        #expect(line.asks(tiltAt: 2, angle: -mild))
        #expect(!line.asks(tiltAt: 4, angle: steep) && !line.asks(tiltAt: 5, angle: -steep), "its line would cross it")
        let field = NumericLookTerms(after: Self.refused(seeing: ""), applies: true, imageWidth: 185, imageHeight: 100)
        #expect(field.asks(tiltAt: 4, angle: steep))
        let photo = NumericLookTerms(after: Self.refused(seeing: ""), applies: false, imageWidth: 200, imageHeight: 31)
        #expect(photo.asks(tiltAt: 4, angle: steep), "terms that do not apply ask everything")
    }

    @Test func nothingIsTakenFromARefusalAndEverythingWhereTheTermsDoNotApply() {
        #expect(Self.taken([Self.refused(seeing: "89")], seeing: "89") == [false])
        #expect(Self.taken([Self.read("160")], seeing: "167", applies: false) == [true])
    }
}
