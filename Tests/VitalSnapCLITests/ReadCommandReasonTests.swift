import XCTest
@testable import vitalsnap

/// The reason `read` gives when a clip ends without a steady reading: the one most frames gave, and of reasons
/// as common, the latest, the same in every run.
final class ReadCommandReasonTests: XCTestCase {
    func testTheMostCommonReasonIsGiven() {
        var reasons: ReadCommand.FrameReasons = [:]
        for (frame, why) in ["glare", "unclear", "glare", "no digits found"].enumerated() {
            ReadCommand.count(why, frame: frame, in: &reasons)
        }
        XCTAssertEqual(reasons["glare"]?.frames, 2)
        XCTAssertEqual(ReadCommand.commonReason(reasons), "; most frames: glare")
        XCTAssertEqual(ReadCommand.commonReason([:]), "")
    }

    func testOfReasonsAsCommonTheLatestIsGiven() {
        // Eight reasons, each given by two frames; the one given last wins. (Ties were once settled by the
        // dictionary's order, which changes with every run.)
        for last in 0..<8 {
            var reasons: ReadCommand.FrameReasons = [:]
            let names = (0..<8).map { "reason \($0)" }
            for (frame, k) in (Array(0..<8) + Array(0..<8).filter { $0 != last } + [last]).enumerated() {
                ReadCommand.count(names[k], frame: frame, in: &reasons)
            }
            XCTAssertEqual(ReadCommand.commonReason(reasons), "; most frames: reason \(last)")
        }
    }
}
