import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapView

/// The hub between the reading and the pages: it holds the newest frame only, hands the page's decision to the
/// reading, and counts pages closed past the grace period as a cancel.
struct ViewHubTests {
    static func state(_ sequence: Int) -> ViewFrameState {
        ViewFrameState(
            sequence: sequence, width: 4, height: 4, partial: "", guess: "", votes: 0, requiredVotes: 4, reason: nil,
            glare: [], glareAdvice: nil, readRate: 0)
    }

    @Test func onlyTheNewestFrameIsHeldWhateverThePagesDo() {
        let hub = ViewHub()
        for n in 1...50 { hub.show(frame: GrayImage(width: 4, height: 4, fill: UInt8(n)), state: Self.state(n)) }
        let shown = hub.snapshot()
        #expect(shown.frameState?.sequence == 50)
        #expect(shown.frame?.pixels.first == 50)
        #expect(shown.versions.frame == 50)
    }

    @Test func decisionsReachTheReadingOnlyForASteadyReading() async {
        let hub = ViewHub()
        #expect(hub.submit(.accept) != nil, "nothing to accept while reading")
        #expect(hub.submit(.retake) != nil)
        hub.show(ViewConverged(value: "43", unit: "mg/dL", editHint: "one number", number: 1), crop: [1, 2, 3])
        #expect(hub.cropPNG == [1, 2, 3])
        #expect(hub.submit(.edit("44")) == nil)
        #expect(await hub.decision() == .edit("44"))
        #expect(hub.submit(.accept) != nil, "decided once")
        #expect(hub.submit(.cancel) == nil)
        #expect(await hub.decision() == .cancel)
        #expect(hub.isCancelled)
    }

    /// The time limit only stops a hang: under a full test run, tests that read photos for minutes hold every
    /// cooperative thread, and this one may wait that long for one (it took 149 s on CI's 2 cores).
    @Test(.timeLimit(.minutes(10))) func closingEveryPageIsACancelAfterTheGracePeriod() async throws {
        let hub = ViewHub(closeGrace: .milliseconds(100))
        let (first, _) = hub.open()
        hub.close(first)
        // Reopened within the grace period (a reload): not closed, however late the check runs.
        let (second, _) = hub.open()
        try await Task.sleep(for: .milliseconds(250))
        #expect(!hub.wasClosed)
        // Closed for good: the reading's wait for a decision ends as a cancel once the grace period has passed.
        hub.close(second)
        #expect(await hub.decision() == .pageClosed)
        #expect(hub.wasClosed)
        #expect(hub.isCancelled)
    }

    @Test func aPageIsWokenForEveryChangeButNeverQueuesThem() async {
        let hub = ViewHub()
        let (number, wakeups) = hub.open()
        for n in 1...20 { hub.show(frame: GrayImage(width: 4, height: 4), state: Self.state(n)) }
        hub.close(number)
        var count = 0
        for await _ in wakeups { count += 1 }
        // The opening wake-up and at most one for the twenty frames: wake-ups are coalesced.
        #expect(count <= 2)
    }
}
