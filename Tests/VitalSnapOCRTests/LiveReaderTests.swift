import Foundation
import VitalSnapImaging
import VitalSnapOCR
import XCTest

/// The live per-frame step on the project's sample clips (320x240 frames), with and without reading only the
/// tracked region.
final class LiveReaderTests: XCTestCase {
    private let clips = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Samples/clips")

    private func frames(_ clip: String) throws -> [GrayImage] {
        let folder = clips.appendingPathComponent(clip)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }.sorted()
        return try names.map { try ImageDecoder.decode(contentsOf: folder.appendingPathComponent($0).path).image }
    }

    private func peripheral(_ id: Int) throws -> PeripheralDefinition {
        try XCTUnwrap(try PeripheralCatalog.builtIn()[id])
    }

    /// Feeds frames until convergence; returns the final reading and the frames it took.
    private func converge(_ frames: [GrayImage], _ live: inout LiveReader) throws -> (String?, Int) {
        for (i, frame) in frames.enumerated() {
            let step = try live.process(frame, timestamp: Double(i) / 10)
            if let final = step.update.final { return (final.readingString, i + 1) }
        }
        return (nil, frames.count)
    }

    func testTrackingTheDisplayConvergesOnTheSameValueAsReadingWholeFrames() throws {
        let settle = try frames("settle-glucose-g1")
        var tracking = LiveReader(peripheral: try peripheral(101), unit: nil, reader: .rules)
        var whole = LiveReader(peripheral: try peripheral(101), unit: nil, reader: .rules)
        whole.fullFrameInterval = 0
        let tracked = try converge(settle, &tracking)
        let plain = try converge(settle, &whole)
        XCTAssertEqual(tracked.0, "43")
        XCTAssertEqual(tracked.0, plain.0)
        XCTAssertEqual(tracked.1, plain.1)
        // The region followed is the display, well inside the frame, and the crop kept is inside it.
        let region = try XCTUnwrap(tracking.trackedRegion)
        XCTAssertEqual(region.intersection(settle[0].bounds), region)
        XCTAssertLessThan(region.area, settle[0].bounds.area)
        let crop = try XCTUnwrap(tracking.bestCrop)
        XCTAssertEqual(crop.region.intersection(region), crop.region)
    }

    func testAFrameWithNothingInTheRegionFallsBackToTheWholeFrameAndForgetsTheRegion() throws {
        let settle = try frames("settle-glucose-g1")
        var live = LiveReader(peripheral: try peripheral(101), unit: nil, reader: .rules)
        // Frames 8-11 show the value clearly (frame 12 is blurred again).
        XCTAssertEqual(try converge(Array(settle[7..<11]), &live).0, "43")
        XCTAssertNotNil(live.trackedRegion)
        // The meter left the picture: a blank frame.
        let blank = GrayImage(width: settle[0].width, height: settle[0].height, fill: 128)
        let step = try live.process(blank, timestamp: 10)
        XCTAssertFalse(step.update.partial.status.isVote)
        XCTAssertNil(live.trackedRegion)
    }

    func testAlternatingValuesStillNeverConvergeWhenTracked() throws {
        var live = LiveReader(peripheral: try peripheral(102), unit: "mmol/L", reader: .rules)
        XCTAssertNil(try converge(try frames("alternate-glucose-g2-mmol"), &live).0)
    }
}
