import XCTest
import VitalSnapImaging
@testable import VitalSnapOCR

final class ConvergenceTests: XCTestCase {
    // MARK: - Frames

    static let glareOverDigits = GlareReport(
        regions: [PixelRect(x: 10, y: 10, width: 20, height: 20)], share: 0.2, coversDigits: true)

    /// A glucose reading in mmol/L (`11.6`).
    static func mmol(_ text: String, confidence: Double = 0.9) -> Reading {
        let value = FieldValue(
            field: .bloodGlucose, text: text, value: Double(text)!, unit: "mmol/L", decimals: 1, confidence: confidence)
        return Reading(outcome: .values([value]), confidence: confidence, recognizedText: text + "\n12:34", lines: [])
    }

    static func mgdl(_ text: String, confidence: Double = 0.9) -> Reading {
        let value = FieldValue(
            field: .bloodGlucose, text: text, value: Double(text)!, unit: "mg/dL", decimals: 0, confidence: confidence)
        return Reading(outcome: .values([value]), confidence: confidence, recognizedText: text, lines: [])
    }

    static func bloodPressure(_ sys: Int, _ dia: Int, _ pulse: Int, confidence: Double = 0.9) -> Reading {
        let fields: [(FieldName, Int, String)] = [(.systolic, sys, "mmHg"), (.diastolic, dia, "mmHg"), (.pulse, pulse, "bpm")]
        let values = fields.map {
            FieldValue(field: $0.0, text: String($0.1), value: Double($0.1), unit: $0.2, decimals: 0, confidence: confidence)
        }
        return Reading(
            outcome: .values(values), confidence: confidence, recognizedText: "\(sys)\n\(dia)\n\(pulse)", lines: [])
    }

    static func word(_ word: String, confidence: Double = 0.9) -> Reading {
        Reading(outcome: .word(word), confidence: confidence, recognizedText: word, lines: [])
    }

    static func unreadable(_ why: String = "no digits found", text: String = "") -> Reading {
        Reading(outcome: .none(Refusal(.noDigits, why)), confidence: 0, recognizedText: text, lines: [])
    }

    /// Feeds `readings` at 30 frames per second from t = 100 s; returns every update.
    static func run(
        _ converger: inout ReadingConverger, _ readings: [Reading], glare: [GlareReport]? = nil, start: Int = 0
    ) -> [ConvergenceUpdate] {
        readings.enumerated().map { i, reading in
            converger.add(reading, glare: glare?[i] ?? .none, timestamp: 100 + Double(start + i) / 30)
        }
    }

    /// The 1-based frame number of the first converged update, if any.
    static func convergedAt(_ updates: [ConvergenceUpdate]) -> Int? {
        updates.first(where: \.isConverged)?.frameNumber
    }

    // MARK: - Steady and settling

    func testSteadySequenceConvergesAfterExactlyRequiredVotes() throws {
        var converger = ReadingConverger()
        XCTAssertEqual(converger.policy.requiredVotes, 4)
        XCTAssertEqual(converger.policy.window, 8)
        let updates = Self.run(&converger, Array(repeating: Self.mmol("11.6"), count: 6))

        XCTAssertEqual(updates.map(\.isConverged), [false, false, false, true, true, true])
        XCTAssertEqual(updates.map(\.progress), [0.25, 0.5, 0.75, 1, 1, 1])
        XCTAssertEqual(updates.map(\.votesInWindow), [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(updates[0].partial.recognizedText, "11.6\n12:34")
        XCTAssertEqual(updates[0].partial.status, .vote)
        XCTAssertEqual(updates[0].partial.bestGuess.map(\.text), ["11.6"])

        let final = try XCTUnwrap(updates[3].final)
        XCTAssertEqual(final.readingString, "11.6")
        XCTAssertEqual(final.values.map(\.value), [11.6])
        XCTAssertEqual(final.values.map(\.unit), ["mmol/L"])
        XCTAssertNil(final.word)
        XCTAssertEqual(final.votes, 4)
        XCTAssertEqual(final.framesToConvergence, 4)
        XCTAssertEqual(final.elapsed, 3.0 / 30, accuracy: 1e-9)
        XCTAssertEqual(final.timestamp, 100 + 3.0 / 30, accuracy: 1e-9)
        XCTAssertEqual(final.confidence, 0.9)
        XCTAssertEqual(updates[5].final, final, "the final reading does not change after convergence")
    }

    func testSteadySequenceWithThreeRequiredVotesConvergesOnTheThird() {
        var converger = ReadingConverger(policy: ConvergencePolicy(requiredVotes: 3, window: 8))
        let updates = Self.run(&converger, Array(repeating: Self.bloodPressure(120, 80, 72), count: 5))
        XCTAssertEqual(Self.convergedAt(updates), 3)
        XCTAssertEqual(updates[2].final?.readingString, "120/80/72")
        XCTAssertEqual(updates[2].final?.framesToConvergence, 3)
        XCTAssertEqual(updates[1].progress, 2.0 / 3, accuracy: 1e-12)
    }

    func testSettlingSequenceConvergesOnTheSteadyValue() {
        var converger = ReadingConverger()
        // Blurred and glared first frames: misreads under glare, nothing at all, unclear digits, a faint guess.
        let unsettled = [
            Self.mmol("18.6"), Self.unreadable(), Self.mmol("11.0"), Self.unreadable("the digits are unclear (1?.6)", text: "1?.6"),
            Self.mmol("17.6", confidence: 0.3),
        ]
        let glare: [GlareReport] = [Self.glareOverDigits, .none, Self.glareOverDigits, .none, .none]
            + Array(repeating: .none, count: 8)
        let readings = unsettled + Array(repeating: Self.mmol("11.6"), count: 8)
        let updates = Self.run(&converger, readings, glare: glare)

        XCTAssertEqual(updates.prefix(5).map(\.partial.status), [
            .glareOverDigits, .unreadable("no digits found"), .glareOverDigits,
            .unreadable("the digits are unclear (1?.6)"), .lowConfidence,
        ])
        XCTAssertEqual(updates.prefix(5).map(\.votesInWindow), [0, 0, 0, 0, 0])
        XCTAssertEqual(updates.prefix(5).map(\.progress), [0, 0, 0, 0, 0])
        XCTAssertEqual(updates[3].partial.recognizedText, "1?.6", "unreadable frames are still reported")
        XCTAssertEqual(updates[0].partial.glare, Self.glareOverDigits)
        XCTAssertEqual(Self.convergedAt(updates), 9, "5 unsettled frames, then the 4th steady vote")
        XCTAssertEqual(updates.last?.final?.readingString, "11.6")
        XCTAssertEqual(updates.last?.final?.framesToConvergence, 9)
        XCTAssertEqual(updates.last?.final?.elapsed ?? -1, 8.0 / 30, accuracy: 1e-9)
    }

    // MARK: - Disagreement

    func testAlternatingValuesNeverConverge() {
        for period in 1...3 {
            var converger = ReadingConverger()
            let readings = (0..<100).map { Self.mmol(($0 / period) % 2 == 0 ? "11.6" : "10.3") }
            let updates = Self.run(&converger, readings)
            XCTAssertNil(Self.convergedAt(updates), "period \(period)")
            XCTAssertFalse(converger.isConverged)
            XCTAssertTrue(updates[period].isBlocked, "the first change blocks (period \(period))")
            XCTAssertTrue(updates.dropFirst(period).allSatisfy(\.isBlocked), "period \(period)")
            XCTAssertTrue(updates.allSatisfy { $0.progress < 1 })
        }
    }

    /// Why the default needs 4 votes: with 3, a display changing every 3 frames shows 3 equal frames first, which
    /// no rule looking only at the past can tell from a steady display.
    func testThreeRequiredVotesCannotTellAPeriodThreeAlternationFromASteadyStart() {
        var converger = ReadingConverger(policy: ConvergencePolicy(requiredVotes: 3))
        let readings = (0..<12).map { Self.mmol(($0 / 3) % 2 == 0 ? "11.6" : "10.3") }
        let updates = Self.run(&converger, readings)
        XCTAssertEqual(Self.convergedAt(updates), 3)
        // With a 4th vote required, the same frames never converge.
        var safe = ReadingConverger(policy: ConvergencePolicy(requiredVotes: 4))
        XCTAssertNil(Self.convergedAt(Self.run(&safe, readings)))
    }

    func testOneDisagreeingFrameBlocksUntilTheWindowSlidesPastIt() {
        var converger = ReadingConverger()
        var readings = Array(repeating: Self.mmol("11.6"), count: 14)
        readings[2] = Self.mmol("10.3")  // frame 3
        let updates = Self.run(&converger, readings)

        XCTAssertEqual(updates.map(\.isBlocked), [false, false] + Array(repeating: true, count: 8) + [false, false, false, false])
        XCTAssertEqual(Self.convergedAt(updates), 11, "frame 3 leaves the 8-frame window at frame 11")
        XCTAssertEqual(updates[9].votesInWindow, 8)
        XCTAssertEqual(updates[9].agreeingVotes, 7)
        XCTAssertEqual(updates[9].progress, 0.75, "blocked: at most (K - 1) / K")
        XCTAssertEqual(updates[2].progress, 0.25, "the newest vote starts a new run")
        XCTAssertEqual(updates[9].partial.bestGuess.map(\.text), ["11.6"])
        XCTAssertEqual(updates[10].final?.readingString, "11.6")
        XCTAssertEqual(updates[10].final?.votes, 8)
        XCTAssertEqual(updates[10].final?.framesToConvergence, 11)
    }

    func testFaintOrGlaredDisagreementNeitherVotesNorBlocks() {
        var converger = ReadingConverger()
        let readings = [
            Self.mmol("11.6"), Self.mmol("10.3", confidence: 0.2), Self.mmol("11.6"), Self.mmol("18.6"), Self.mmol("11.6"),
            Self.mmol("11.6"),
        ]
        let glare: [GlareReport] = [.none, .none, .none, Self.glareOverDigits, .none, .none]
        let updates = Self.run(&converger, readings, glare: glare)
        XCTAssertEqual(updates.map(\.partial.status), [.vote, .lowConfidence, .vote, .glareOverDigits, .vote, .vote])
        XCTAssertFalse(updates.contains(where: \.isBlocked))
        XCTAssertEqual(Self.convergedAt(updates), 6)
        XCTAssertEqual(updates[5].final?.readingString, "11.6")
        XCTAssertEqual(updates[5].final?.votes, 4)
    }

    func testGlareOverDigitsFramesDoNotVote() {
        var converger = ReadingConverger()
        let updates = Self.run(
            &converger, Array(repeating: Self.mmol("11.6"), count: 20), glare: Array(repeating: Self.glareOverDigits, count: 20))
        XCTAssertNil(Self.convergedAt(updates))
        XCTAssertTrue(updates.allSatisfy { $0.partial.status == .glareOverDigits && $0.votesInWindow == 0 })
        XCTAssertTrue(updates.allSatisfy { $0.partial.bestGuess.isEmpty && $0.progress == 0 })
        XCTAssertEqual(updates[0].partial.glare.regions, [PixelRect(x: 10, y: 10, width: 20, height: 20)])
        XCTAssertEqual(updates[0].partial.recognizedText, "11.6\n12:34", "the partial result still shows what was read")

        // Glare beside the digits (not over them) does not stop a frame from voting.
        let beside = GlareReport(regions: [PixelRect(x: 0, y: 0, width: 5, height: 5)], share: 0.3, coversDigits: false)
        let more = Self.run(&converger, Array(repeating: Self.mmol("11.6"), count: 4), glare: Array(repeating: beside, count: 4), start: 20)
        XCTAssertEqual(Self.convergedAt(more), 24)
        XCTAssertEqual(more.last?.final?.framesToConvergence, 24)
        XCTAssertEqual(more.last?.final?.elapsed ?? -1, 23.0 / 30, accuracy: 1e-9)
    }

    // MARK: - Words

    func testWordDisplayConvergesOnTheWord() throws {
        var converger = ReadingConverger(peripheral: try XCTUnwrap(PeripheralCatalog.builtIn()[9]))
        let updates = Self.run(&converger, [Self.unreadable()] + Array(repeating: Self.word("LO"), count: 5))
        XCTAssertEqual(Self.convergedAt(updates), 5)
        let final = try XCTUnwrap(converger.final)
        XCTAssertEqual(final.outcome, .word("LO"))
        XCTAssertEqual(final.word, "LO")
        XCTAssertEqual(final.values, [])
        XCTAssertEqual(final.readingString, "LO")
        XCTAssertEqual(updates[4].partial.bestWord, "LO")
        XCTAssertEqual(updates[4].partial.bestGuess, [])
    }

    func testWordAndNumberDisagreeSoAWordNeverBecomesANumber() {
        // `LO` sometimes misread as the number 10 (a numeric display accepts it): never converges.
        var converger = ReadingConverger()
        let readings = (0..<100).map { $0 % 3 == 2 ? Self.mgdl("10") : Self.word("LO") }
        let updates = Self.run(&converger, readings)
        XCTAssertNil(Self.convergedAt(updates))
        XCTAssertTrue(updates.dropFirst(2).allSatisfy(\.isBlocked))

        // Words converge on the word even after number votes have left the window; the final outcome is a word.
        var wordy = ReadingConverger()
        let mixed = [Self.mgdl("10")] + Array(repeating: Self.word("LO"), count: 10)
        let u = Self.run(&wordy, mixed)
        XCTAssertEqual(Self.convergedAt(u), 9, "the number vote of frame 1 leaves the window at frame 9")
        XCTAssertEqual(wordy.final?.outcome, .word("LO"))
        XCTAssertEqual(wordy.final?.values, [])

        // Two different words disagree too.
        var words = ReadingConverger()
        XCTAssertNil(Self.convergedAt(Self.run(&words, (0..<40).map { Self.word($0 % 2 == 0 ? "LO" : "HI") })))
    }

    func testFaintWordsDoNotVote() {
        var converger = ReadingConverger()
        let updates = Self.run(&converger, Array(repeating: Self.word("Err", confidence: 0.3), count: 10))
        XCTAssertNil(Self.convergedAt(updates))
        XCTAssertTrue(updates.allSatisfy { $0.partial.status == .lowConfidence })
    }

    // MARK: - Plausibility, best guess, reset

    func testPeripheralChecksKeepImplausibleValuesFromVoting() throws {
        let catalog = try PeripheralCatalog.builtIn()
        let glucose = ReadingConverger(peripheral: try XCTUnwrap(catalog[9]))
        XCTAssertEqual(glucose.classify(Self.mgdl("120"), glare: .none), .vote)
        XCTAssertEqual(glucose.classify(Self.mmol("5.6"), glare: .none), .vote)
        XCTAssertEqual(glucose.classify(Self.mgdl("700"), glare: .none), .implausible(.bloodGlucose))
        XCTAssertEqual(glucose.classify(Self.mmol("40.0"), glare: .none), .implausible(.bloodGlucose))
        var wrongDecimals = Self.mgdl("120")
        wrongDecimals.outcome = .values([FieldValue(field: .bloodGlucose, text: "12.0", value: 12, unit: "mg/dL", decimals: 1, confidence: 0.9)])
        XCTAssertEqual(glucose.classify(wrongDecimals, glare: .none), .implausible(.bloodGlucose))
        XCTAssertEqual(glucose.classify(Self.bloodPressure(120, 80, 72), glare: .none), .incomplete)

        let bp = ReadingConverger(peripheral: try XCTUnwrap(catalog[103]))
        XCTAssertEqual(bp.classify(Self.bloodPressure(120, 80, 72), glare: .none), .vote)
        XCTAssertEqual(bp.classify(Self.bloodPressure(80, 120, 72), glare: .none), .implausible(.systolic))
        XCTAssertEqual(bp.classify(Self.bloodPressure(120, 80, 300), glare: .none), .implausible(.pulse))
        var twoOfThree = Self.bloodPressure(120, 80, 72)
        twoOfThree.outcome = .values(Array(twoOfThree.values.prefix(2)))
        XCTAssertEqual(bp.classify(twoOfThree, glare: .none), .incomplete)
        XCTAssertEqual(bp.classify(Self.bloodPressure(120, 80, 72), glare: Self.glareOverDigits), .glareOverDigits)

        // Without a peripheral only the values' own sanity is checked.
        let plain = ReadingConverger()
        XCTAssertEqual(plain.classify(Self.mgdl("700"), glare: .none), .vote)
        XCTAssertEqual(plain.classify(Reading(outcome: .values([]), confidence: 1, recognizedText: "", lines: []), glare: .none), .incomplete)
        var notFinite = Self.mgdl("120")
        notFinite.outcome = .values([FieldValue(field: .bloodGlucose, text: "120", value: .nan, unit: "mg/dL", decimals: 0, confidence: 0.9)])
        XCTAssertEqual(plain.classify(notFinite, glare: .none), .implausible(.bloodGlucose))
        var faintField = Self.bloodPressure(120, 80, 72)
        faintField.outcome = .values(faintField.values.enumerated().map { i, v in
            var v = v
            if i == 2 { v.confidence = 0.1 }
            return v
        })
        XCTAssertEqual(plain.classify(faintField, glare: .none), .lowConfidence)
    }

    func testBestGuessIsPerFieldMajority() {
        var converger = ReadingConverger()
        let updates = Self.run(&converger, [
            Self.bloodPressure(120, 80, 72), Self.bloodPressure(121, 80, 72), Self.bloodPressure(120, 80, 73),
            Self.bloodPressure(120, 81, 73), Self.bloodPressure(120, 80, 73),
        ])
        XCTAssertNil(Self.convergedAt(updates))
        // sys 120 x4, dia 80 x4, pulse 73 x3 vs 72 x2.
        XCTAssertEqual(updates[4].partial.bestGuess.map(\.text), ["120", "80", "73"])
        XCTAssertEqual(updates[4].partial.bestGuess.map(\.field), [.systolic, .diastolic, .pulse])
        // A tie goes to the newest: 120/80/72 and 121/80/72 one vote each for systolic.
        XCTAssertEqual(updates[1].partial.bestGuess.map(\.text), ["121", "80", "72"])
        // The fields' best values can come from different frames: the newest says 81, but 80 has 3 votes to 1.
        XCTAssertEqual(updates[3].partial.bestGuess.map(\.text), ["120", "80", "73"])
    }

    func testResetStartsOver() {
        var converger = ReadingConverger()
        _ = Self.run(&converger, Array(repeating: Self.mmol("11.6"), count: 5))
        XCTAssertEqual(converger.final?.readingString, "11.6")
        XCTAssertEqual(converger.frameCount, 5)

        // Still converged on 11.6 while the display changes, until reset.
        let later = Self.run(&converger, Array(repeating: Self.mmol("5.4"), count: 6), start: 5)
        XCTAssertTrue(later.allSatisfy { $0.final?.readingString == "11.6" })

        converger.reset()
        XCTAssertFalse(converger.isConverged)
        XCTAssertNil(converger.final)
        XCTAssertEqual(converger.frameCount, 0)
        let after = Self.run(&converger, Array(repeating: Self.mmol("5.4"), count: 4), start: 50)
        XCTAssertEqual(after.map(\.frameNumber), [1, 2, 3, 4])
        XCTAssertEqual(after.map(\.votesInWindow), [1, 2, 3, 4], "nothing from before the reset is in the window")
        XCTAssertEqual(Self.convergedAt(after), 4)
        XCTAssertEqual(converger.final?.readingString, "5.4")
        XCTAssertEqual(converger.final?.framesToConvergence, 4)
        XCTAssertEqual(converger.final?.elapsed ?? -1, 3.0 / 30, accuracy: 1e-9, "timed from the first frame after the reset")
    }

    // MARK: - Ring buffer

    func testRingBufferWraps() {
        var ring = FixedRingBuffer<Int>(capacity: 3)
        XCTAssertTrue(ring.isEmpty)
        XCTAssertNil(ring.newest)
        XCTAssertNil(ring.append(1))
        XCTAssertNil(ring.append(2))
        XCTAssertEqual(Array(ring), [1, 2])
        XCTAssertFalse(ring.isFull)
        XCTAssertNil(ring.append(3))
        XCTAssertTrue(ring.isFull)
        XCTAssertEqual(ring.append(4), 1)
        XCTAssertEqual(ring.append(5), 2)
        XCTAssertEqual(Array(ring), [3, 4, 5])
        XCTAssertEqual(ring.append(6), 3)
        XCTAssertEqual(ring.append(7), 4)
        XCTAssertEqual(Array(ring), [5, 6, 7], "wrapped more than once")
        XCTAssertEqual(ring.count, 3)
        XCTAssertEqual(ring.oldest, 5)
        XCTAssertEqual(ring.newest, 7)
        XCTAssertEqual(ring[1], 6)
        ring.removeAll()
        XCTAssertEqual(Array(ring), [])
        ring.append(8)
        ring.append(9)
        XCTAssertEqual(Array(ring), [8, 9])
        XCTAssertEqual(ring.capacity, 3)

        var one = FixedRingBuffer<String>(capacity: 1)
        one.append("a")
        XCTAssertEqual(one.append("b"), "a")
        XCTAssertEqual(Array(one), ["b"])
    }

    func testRingBufferKeepsItsStorage() {
        var ring = FixedRingBuffer<Int>(capacity: 4)
        let address = ring.storageAddress
        for i in 0..<100 { ring.append(i) }
        XCTAssertEqual(Array(ring), [96, 97, 98, 99])
        XCTAssertEqual(ring.storageAddress, address, "storage reserved once, in init")
        ring.removeAll()
        for i in 0..<6 { ring.append(i) }
        XCTAssertEqual(Array(ring), [2, 3, 4, 5])
        XCTAssertEqual(ring.storageAddress, address)
    }
}
