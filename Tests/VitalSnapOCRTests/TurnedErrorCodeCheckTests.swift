import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// A single value that an error screen turned over would show (`E9` reads `63`) is refused where the orienter
/// gives the photo upside down as read some probability (`TurnedErrorCodeCheck`).
struct TurnedErrorCodeCheckTests {
    @Test func sevenSegmentTextTurnedOver() {
        #expect(TurnedErrorCodeCheck.turnedOver("63") == "E9")
        #expect(TurnedErrorCodeCheck.turnedOver("E2") == "23")
        #expect(TurnedErrorCodeCheck.turnedOver("128") == "821")
        #expect(TurnedErrorCodeCheck.turnedOver("74") == nil, "a 4 turned over is no character")
        #expect(TurnedErrorCodeCheck.isErrorCodeTurnedOver("63") && TurnedErrorCodeCheck.isErrorCodeTurnedOver("23"))
        #expect(!TurnedErrorCodeCheck.isErrorCodeTurnedOver("93.") && !TurnedErrorCodeCheck.isErrorCodeTurnedOver("123"))
        #expect(!TurnedErrorCodeCheck.isErrorCodeTurnedOver("36"), "`9E` is no error code")
    }

    /// A glucose reading of `text`, its one line reading along `angle` (radians) in the photo turned by
    /// `orientation`.
    func result(_ text: String, angle: Double = 0, orientation: ExifOrientation = .up) -> PhotoResult {
        let value = FieldValue(field: .bloodGlucose, text: text, value: Double(text) ?? 0, unit: "mg/dL", decimals: 0, confidence: 0.99)
        let corners = LineQuad(center: Point(x: 100, y: 50), angle: angle, length: 60, digitHeight: 40)
        let line = RecognizedLine(characters: [], confidence: 0.99, digitHeight: 40, polarity: .dark, corners: corners, contrast: 100, hasGap: false)
        var result = PhotoResult(file: "meter.jpg", reading: Reading(outcome: .values([value]), confidence: 0.99, recognizedText: text, lines: [line]))
        result.readOrientation = orientation
        return result
    }

    /// Probabilities of the four turns, `upsideDown` for the half turn, the rest on upright.
    func probabilities(halfTurn upsideDown: Double) -> TurnProbabilities {
        TurnProbabilities(SIMD4(1 - upsideDown, 0, upsideDown, 0))
    }

    @Test func aValueThatReadsAsAnErrorCodeTurnedOverIsRefusedWhereTheOrienterDoubtsTheTurn() {
        let check = TurnedErrorCodeCheck()
        let refused = check.check(result("63"), probabilities: probabilities(halfTurn: 0.2))
        #expect(refused.reading?.readingString == nil)
        #expect(refused.reading?.refusal?.reason == .turnsDisagree)
        #expect(refused.message?.contains("E9") == true, "\(refused.message ?? "")")
        #expect(refused.reading?.refusal?.mayBeTurnedErrorCode == "63")
        #expect(refused.reading?.refusal?.doubts("63") == true, "no later look may give it")
        // Sure the photo stands as read: the value stands; so does one that is no error code turned over.
        #expect(check.check(result("63"), probabilities: probabilities(halfTurn: 0.01)).reading?.readingString == "63")
        #expect(check.check(result("128"), probabilities: probabilities(halfTurn: 0.9)).reading?.readingString == "128")
        // A plain numeric display shows no error screens: its 63 stands.
        let numeric = TurnedErrorCodeCheck(peripheral: .numericDisplay)
        #expect(numeric.check(result("63"), probabilities: probabilities(halfTurn: 0.9)).reading?.readingString == "63")
    }

    @Test func theTurnIsThePhotosAndItsLinesTogether() {
        let check = TurnedErrorCodeCheck()
        // Read upside down (the photo turned a half turn to read it): upside down from that is the photo as given.
        let turned = result("23", orientation: .down)
        #expect(check.check(turned, probabilities: TurnProbabilities(SIMD4(0.01, 0, 0.99, 0))).reading?.readingString == "23")
        #expect(check.check(turned, probabilities: TurnProbabilities(SIMD4(0.2, 0, 0.8, 0))).reading?.readingString == nil)
        // A line reading down the image (a quarter turn clockwise): turned over, it reads up, three quarters.
        let sideways = result("93", angle: Double.pi / 2)
        #expect(check.check(sideways, probabilities: TurnProbabilities(SIMD4(0, 0.7, 0, 0.3))).reading?.readingString == nil)
        #expect(check.check(sideways, probabilities: TurnProbabilities(SIMD4(0.3, 0.7, 0, 0))).reading?.readingString == "93")
    }

    @Test func theTrainedOrienterGivesEveryTurnsProbability() throws {
        var orienter = try PhotoOrienterTests().orienter()
        let photo = try PhotoOrienterTests().sample("glucose-g1", 1)
        for image in [photo, photo.rotated180()] {
            let estimate = try orienter.estimate(image, lines: [])
            let p = try #require(orienter.lastTurnProbabilities)
            #expect(abs(p.values.sum() - 1) < 1e-9)
            let top = (0..<4).max { p[$0] < p[$1] }
            #expect(top == estimate?.clockwiseTurns)
            #expect(abs(p[top ?? 0] - (estimate?.confidence ?? 0)) < 1e-9, "the top turn's is the estimate's confidence")
        }
        _ = try orienter.estimate(GrayImage(width: 0, height: 0), lines: [])
        #expect(orienter.lastTurnProbabilities == nil, "an empty image leaves none from the photo before")
    }
}
