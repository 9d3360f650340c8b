import VitalSnapCapture
import VitalSnapImaging
import XCTest

final class FrameConversionTests: XCTestCase {
    func testYUYVTakesTheLumaBytes() throws {
        // 4x2: Y0 U Y1 V per pixel pair.
        let bytes: [UInt8] = [
            10, 128, 20, 129, 30, 130, 40, 131,
            50, 132, 60, 133, 70, 134, 80, 135,
        ]
        let format = V4L2PixelFormat(fourcc: .yuyv, width: 4, height: 2, bytesPerLine: 8, sizeImage: 16)
        let image = try bytes.withUnsafeBytes { raw throws(V4L2FrameConverter.Failure) in
            try V4L2FrameConverter.gray(from: raw, format: format)
        }
        XCTAssertEqual(image, GrayImage(width: 4, height: 2, pixels: [10, 20, 30, 40, 50, 60, 70, 80]))
    }

    func testYUYVThroughTheCameraWithPaddedRows() throws {
        let picture = Recording.pattern(width: 6, height: 3)
        let driver = RecordedV4L2Driver(offering: [.yuyv], arrivals: [[Recording.frame(Recording.yuyvBytes(picture, stride: 16), sequence: 0)]])
        driver.setFormatAnswer = { asked in
            V4L2PixelFormat(fourcc: .yuyv, width: asked.width, height: asked.height, bytesPerLine: 16, sizeImage: 48)
        }
        let camera = try V4L2Camera(options: Recording.options(size: CaptureSize(width: 6, height: 3)), driver: driver)
        let frame = try XCTUnwrap(camera.nextFrame())
        XCTAssertEqual(frame.image, picture)
    }

    func testGreyRowsHonourBytesPerLine() throws {
        let picture = Recording.pattern(width: 5, height: 4)
        let driver = RecordedV4L2Driver(offering: [.grey], arrivals: [[Recording.frame(Recording.greyBytes(picture, stride: 8), sequence: 0)]])
        driver.setFormatAnswer = { asked in
            V4L2PixelFormat(fourcc: .grey, width: asked.width, height: asked.height, bytesPerLine: 8, sizeImage: 32)
        }
        let camera = try V4L2Camera(options: Recording.options(size: CaptureSize(width: 5, height: 4)), driver: driver)
        XCTAssertEqual(camera.format?.bytesPerLine, 8)
        let frame = try XCTUnwrap(camera.nextFrame())
        XCTAssertEqual(frame.image, picture)
        XCTAssertFalse(frame.image.pixels.contains(0xAB), "padding bytes leaked into the image")
    }

    func testUnpaddedGreyIsCopiedExactly() throws {
        let picture = Recording.pattern(width: 8, height: 4)
        let driver = RecordedV4L2Driver(offering: [.grey], arrivals: [[Recording.frame(picture.pixels, sequence: 0)]])
        let camera = try V4L2Camera(options: Recording.options(), driver: driver)
        XCTAssertEqual(try camera.nextFrame()?.image, picture)
    }

    func testMJPEGOnlyCameraDecodesARealJPEG() throws {
        let picture = Recording.pattern(width: 32, height: 16)
        let jpeg = try ImageEncoder.jpeg(picture, quality: 95)
        let driver = RecordedV4L2Driver(offering: [.mjpeg], arrivals: [[Recording.frame(jpeg, sequence: 0)]])
        driver.bufferSlack = 4096  // the buffer is bigger than the JPEG: only bytesused may be decoded
        let camera = try V4L2Camera(options: Recording.options(size: CaptureSize(width: 32, height: 16)), driver: driver)
        XCTAssertEqual(camera.format?.fourcc, .mjpeg)
        let frame = try XCTUnwrap(camera.nextFrame())
        XCTAssertEqual(frame.image.width, 32)
        XCTAssertEqual(frame.image.height, 16)
        let worst = zip(frame.image.pixels, picture.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        XCTAssertLessThan(worst, 12)
        XCTAssertEqual(driver.violations, [])
    }

    func testShortFrameIsSkipped() throws {
        let picture = Recording.pattern(width: 8, height: 4)
        let driver = RecordedV4L2Driver(offering: [.grey], arrivals: [
            [Recording.frame(Array(picture.pixels.prefix(20)), sequence: 0)],
            [Recording.frame(picture.pixels, sequence: 1)],
        ])
        let camera = try V4L2Camera(options: Recording.options(), driver: driver)
        let frame = try XCTUnwrap(camera.nextFrame())
        XCTAssertEqual(frame.image, picture)
    }

    func testDamagedAndUndecodableFramesAreSkippedThenFail() throws {
        let picture = Recording.pattern(width: 16, height: 8)
        let jpeg = try ImageEncoder.jpeg(picture, quality: 90)
        var damaged = Recording.frame(jpeg, sequence: 0)
        damaged.isError = true
        let garbage = Recording.frame([0xFF, 0xD8, 0xFF, 0x00, 1, 2, 3], sequence: 1)
        let driver = RecordedV4L2Driver(offering: [.mjpeg], arrivals: [
            [damaged], [garbage], [Recording.frame(jpeg, sequence: 2)],
            [garbage], [garbage], [garbage],
        ])
        var options = Recording.options(size: CaptureSize(width: 16, height: 8))
        options.maxConsecutiveBadFrames = 3
        let camera = try V4L2Camera(options: options, driver: driver)
        let frame = try XCTUnwrap(camera.nextFrame())
        XCTAssertEqual(frame.image.width, 16)
        XCTAssertEqual(frame.sequence, 1)  // the first frame handed over
        XCTAssertThrowsError(try camera.nextFrame()) { error in
            guard case .streamFailed(_, let reason) = error as? CaptureError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("3 frames in a row"), reason)
        }
        XCTAssertEqual(driver.queued.count, 4, "skipped frames' buffers must go back to the driver")
        camera.stop()
        assertReleased(driver)
    }
}
