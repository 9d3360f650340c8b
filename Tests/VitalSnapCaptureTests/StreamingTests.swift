import VitalSnapCapture
import XCTest

#if canImport(Glibc)
import Glibc
#endif

final class StreamingTests: XCTestCase {
    func testOpeningSequence() throws {
        let driver = Recording.greyCamera(sequences: [])
        let camera = try V4L2Camera(options: Recording.options(), driver: driver)
        XCTAssertEqual(camera.bufferCount, 4)
        XCTAssertEqual(driver.queued, [0, 1, 2, 3])
        XCTAssertTrue(driver.isStreaming)
        XCTAssertEqual(driver.calls.first, .open(Recording.device))
        XCTAssertEqual(driver.calls.last, .streamOn)
        XCTAssertEqual(driver.violations, [])
    }

    func testBuffersAreQueuedAgainAfterEveryFrame() throws {
        let driver = Recording.greyCamera(sequences: Array(0..<10))
        let camera = try V4L2Camera(options: Recording.options(), driver: driver)
        for k in 1...10 {
            let frame = try XCTUnwrap(camera.nextFrame(), "frame \(k)")
            XCTAssertEqual(frame.sequence, k)
            XCTAssertEqual(frame.image, Recording.pattern(width: 8, height: 4, seed: k - 1))
            XCTAssertEqual(driver.queued.count, 4, "the camera must not keep a buffer between frames")
        }
        // 4 initial QBUFs, then one per frame, round robin: buffers 0,1,2,3,0,1,2,3,0,1 came back.
        XCTAssertEqual(driver.queueCounts, [0: 4, 1: 4, 2: 3, 3: 3])
        XCTAssertEqual(camera.droppedFrames, 0)
        XCTAssertEqual(driver.violations, [])
    }

    func testFewerBuffersGrantedStillCycle() throws {
        let driver = Recording.greyCamera(sequences: Array(0..<5))
        driver.maximumBuffers = 2
        let camera = try V4L2Camera(options: Recording.options(), driver: driver)
        XCTAssertEqual(camera.bufferCount, 2)
        for _ in 0..<5 { XCTAssertNotNil(try camera.nextFrame()) }
        XCTAssertEqual(driver.queueCounts, [0: 4, 1: 3])  // 0,1,0,1,0 came back
        XCTAssertEqual(driver.violations, [])
    }

    func testSequenceGapsCountAsDroppedFrames() throws {
        let driver = Recording.greyCamera(sequences: [5, 6, 9, 10, 15])
        let camera = try V4L2Camera(options: Recording.options(), driver: driver)
        var sequences: [Int] = []
        while driver.framesLeft > 0, let frame = try camera.nextFrame() { sequences.append(frame.sequence) }
        XCTAssertEqual(sequences, [1, 2, 5, 6, 11])
        XCTAssertEqual(camera.droppedFrames, 2 + 4)
    }

    func testSequenceWrapsAround() throws {
        let driver = Recording.greyCamera(sequences: [UInt32.max - 1, UInt32.max, 0, 2])
        let camera = try V4L2Camera(options: Recording.options(), driver: driver)
        var sequences: [Int] = []
        for _ in 0..<4 { sequences.append(try XCTUnwrap(camera.nextFrame()).sequence) }
        XCTAssertEqual(sequences, [1, 2, 3, 5])
        XCTAssertEqual(camera.droppedFrames, 1)
    }

    func testSlowConsumerGetsTheNewestFrame() throws {
        let picture = { (seed: Int) in Recording.greyBytes(Recording.pattern(width: 8, height: 4, seed: seed), stride: 8) }
        let driver = RecordedV4L2Driver(offering: [.grey], arrivals: [
            [Recording.frame(picture(0), sequence: 0, timestamp: 10)],
            // three frames were waiting by the time the consumer asked again
            [Recording.frame(picture(1), sequence: 1, timestamp: 10.1), Recording.frame(picture(2), sequence: 2, timestamp: 10.2),
             Recording.frame(picture(3), sequence: 3, timestamp: 10.3)],
            [Recording.frame(picture(4), sequence: 4, timestamp: 10.4)],
        ])
        let camera = try V4L2Camera(options: Recording.options(), driver: driver)
        XCTAssertEqual(try camera.nextFrame()?.sequence, 1)
        let newest = try XCTUnwrap(camera.nextFrame())
        XCTAssertEqual(newest.sequence, 4)
        XCTAssertEqual(newest.image, Recording.pattern(width: 8, height: 4, seed: 3))
        XCTAssertEqual(newest.timestamp, 0.3, accuracy: 1e-9)
        XCTAssertEqual(camera.droppedFrames, 2)
        XCTAssertEqual(driver.queued.count, 4, "the passed-over buffers went back to the driver")
        XCTAssertEqual(try camera.nextFrame()?.sequence, 5)
        XCTAssertEqual(driver.violations, [])
    }

    func testInOrderWhenNotDroppingStaleFrames() throws {
        let bytes = Recording.pattern(width: 8, height: 4).pixels
        let driver = RecordedV4L2Driver(offering: [.grey], arrivals: [
            [Recording.frame(bytes, sequence: 0), Recording.frame(bytes, sequence: 1), Recording.frame(bytes, sequence: 2)],
        ])
        var options = Recording.options()
        options.dropsStaleFrames = false
        let camera = try V4L2Camera(options: options, driver: driver)
        XCTAssertEqual(try (0..<3).map { _ in try XCTUnwrap(camera.nextFrame()).sequence }, [1, 2, 3])
        XCTAssertEqual(camera.droppedFrames, 0)
    }

    func testDriversWithoutSequenceNumbersCountSkippedFrames() throws {
        let bytes = Recording.pattern(width: 8, height: 4).pixels
        let driver = RecordedV4L2Driver(offering: [.grey], arrivals: [
            [Recording.frame(bytes, sequence: 0)],
            [Recording.frame(bytes, sequence: 0), Recording.frame(bytes, sequence: 0)],
        ])
        let camera = try V4L2Camera(options: Recording.options(), driver: driver)
        XCTAssertEqual(try camera.nextFrame()?.sequence, 1)
        XCTAssertEqual(try camera.nextFrame()?.sequence, 3)
        XCTAssertEqual(camera.droppedFrames, 1)
    }

    func testTimestampsAreSecondsSinceTheFirstFrame() throws {
        let driver = Recording.greyCamera(sequences: [0, 1, 3])  // timestamps 100 + sequence / 30
        let camera = try V4L2Camera(options: Recording.options(), driver: driver)
        let times = try (0..<3).map { _ in try XCTUnwrap(camera.nextFrame()).timestamp }
        XCTAssertEqual(times[0], 0)
        XCTAssertEqual(times[1], 1.0 / 30, accuracy: 1e-9)
        XCTAssertEqual(times[2], 3.0 / 30, accuracy: 1e-9)
    }

    func testOwnClockWhenTheDriverGivesNoTimestamps() throws {
        let bytes = Recording.pattern(width: 8, height: 4).pixels
        let driver = RecordedV4L2Driver(offering: [.grey], arrivals: [[Recording.frame(bytes, sequence: 0)], [Recording.frame(bytes, sequence: 1)]])
        var now = 50.0
        let camera = try V4L2Camera(options: Recording.options(), driver: driver, clock: { now })
        XCTAssertEqual(try camera.nextFrame()?.timestamp, 0)
        now = 50.25
        XCTAssertEqual(try camera.nextFrame()?.timestamp, 0.25)
    }

    func testStopReleasesEverythingExactlyOnce() throws {
        let driver = Recording.greyCamera(sequences: [0, 1])
        var camera: V4L2Camera? = try V4L2Camera(options: Recording.options(), driver: driver)
        XCTAssertNotNil(try camera?.nextFrame())
        camera?.stop()
        camera?.stop()
        XCTAssertNil(try camera?.nextFrame())
        camera = nil  // deinit stops again
        XCTAssertEqual(driver.count(.streamOff), 1)
        XCTAssertEqual(driver.count(.unmap), 4)
        XCTAssertEqual(
            Set(driver.unmappedOffsets),
            Set((0..<4).map { $0 * RecordedV4L2Driver.offsetStride }))
        XCTAssertEqual(driver.count(.close), 1)
        // In that order: stream off, then unmap, then close.
        let tail = driver.calls.suffix(6).map(\.operation)
        XCTAssertEqual(tail, [.streamOff, .unmap, .unmap, .unmap, .unmap, .close])
        assertReleased(driver)
    }

    func testDeinitReleases() throws {
        let driver = Recording.greyCamera(sequences: [0])
        do {
            let camera = try V4L2Camera(options: Recording.options(), driver: driver)
            _ = try camera.nextFrame()
        }
        XCTAssertEqual(driver.count(.streamOff), 1)
        assertReleased(driver)
    }

    func testStopRequestEndsTheStreamCleanly() throws {
        let driver = Recording.greyCamera(sequences: [0, 1, 2])
        let stopRequest = CaptureStopRequest()
        let camera = try V4L2Camera(options: Recording.options(), driver: driver, stopRequest: stopRequest)
        XCTAssertNotNil(try camera.nextFrame())
        stopRequest.request()
        XCTAssertNil(try camera.nextFrame())
        assertReleased(driver)
        XCTAssertEqual(driver.count(.streamOff), 1)
        camera.stop()
        XCTAssertEqual(driver.count(.close), 1)
    }

    func testStopRequestIsSeenWhileWaiting() throws {
        // Nothing arrives; Ctrl-C comes during the third wait.
        let driver = Recording.greyCamera(sequences: [])
        driver.arrivals = Array(repeating: [], count: 10)
        var options = Recording.options()
        options.frameTimeout = 10
        let stopRequest = CaptureStopRequest()
        driver.onEmptyWait = { waits in if waits == 3 { stopRequest.request() } }
        let camera = try V4L2Camera(options: options, driver: driver, stopRequest: stopRequest)
        XCTAssertNil(try camera.nextFrame())
        XCTAssertEqual(driver.count(.dequeueBuffer), 3)
        XCTAssertEqual(driver.count(.streamOff), 1)
        assertReleased(driver)
    }
}
