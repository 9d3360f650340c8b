import Testing
@testable import VitalSnapOCR

/// A result's status and message are told from its reading or failure, so they cannot disagree with it.
struct PhotoResultTests {
    static let value = FieldValue(field: .bloodGlucose, text: "98", value: 98, unit: "mg/dL", decimals: 0, confidence: 0.9)

    func result(_ outcome: ReadingOutcome) -> PhotoResult {
        PhotoResult(file: "a.jpg", reading: Reading(outcome: outcome, confidence: 0.9, recognizedText: "98", lines: []))
    }

    @Test func theStatusFollowsTheOutcome() {
        #expect(result(.values([Self.value])).status == .ok)
        #expect(result(.values([Self.value])).message == nil)
        #expect(result(.word("LO")).status == .noReading)
        #expect(result(.word("LO")).message == "the display shows LO")
        #expect(result(.none(Refusal(.noDigits, "no digits found"))).status == .noReading)
        #expect(result(.none(Refusal(.noDigits, "no digits found"))).message == "no digits found")
        let failed = PhotoResult(file: "a.jpg", failure: "empty file (0 bytes): a.jpg")
        #expect(failed.status == .error)
        #expect(failed.message == "empty file (0 bytes): a.jpg")
    }

    @Test func aRefusalChangesTheOutcomeAndWithItTheStatus() {
        let refused = result(.values([Self.value])).refused(Refusal(.glare, "glare covers the digits"))
        #expect(refused.status == .noReading)
        #expect(refused.reading?.refusal?.reason == .glare)
        #expect(refused.message == "glare covers the digits")
        #expect(refused.reading?.readingString == nil)
        #expect(refused.reading?.confidence == 0)
    }

    /// A later look's values are held to what an earlier look read sure but as no plausible value: an oximeter's
    /// `197` (its pulse bar read as a `1`) lets `97` through and not `91`, the same line read otherwise; any value
    /// agreeing with any such text will do.
    @Test func valuesThatAgreeWithNothingReadSureContradictIt() {
        func values(_ texts: String...) -> PhotoResult {
            result(.values(texts.map { FieldValue(field: .spo2, text: $0, value: Double($0)!, unit: "%", decimals: 0, confidence: 0.9) }))
        }
        #expect(values("91", "84").contradicts(sureTexts: [SureText("197")]))
        #expect(!values("97", "84").contradicts(sureTexts: [SureText("197")]))
        #expect(!values("84", "97").contradicts(sureTexts: [SureText("197")]), "any of the values")
        #expect(!values("97", "84").contradicts(sureTexts: [SureText("191"), SureText("197")]), "any of the texts read sure")
        #expect(values("97", "84").contradicts(sureTexts: [SureText("191"), SureText("181")]), "none of them")
        #expect(!values("91", "84").contradicts(sureTexts: []), "nothing read sure")
        #expect(!result(.none(Refusal(.noDigits, "no digits found"))).contradicts(sureTexts: [SureText("197")]), "no values")
    }
}
