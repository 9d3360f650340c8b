import VitalSnapCapture
import VitalSnapImaging
import XCTest

final class FormatNegotiationTests: XCTestCase {
    func testGreyIsPreferredOverYUYVAndMJPEG() throws {
        let driver = RecordedV4L2Driver(offering: [.mjpeg, .yuyv, .grey])
        let camera = try V4L2Camera(options: Recording.options(), driver: driver)
        XCTAssertEqual(camera.format?.fourcc, .grey)
        XCTAssertEqual(camera.offeredFormats.map(\.fourcc), [.mjpeg, .yuyv, .grey])
        XCTAssertEqual(driver.setFormatRequests.map(\.fourcc), [.grey])
        camera.stop()
        assertReleased(driver)
    }

    func testYUYVIsPreferredOverMJPEG() throws {
        let driver = RecordedV4L2Driver(offering: [.mjpeg, .yuyv])
        let camera = try V4L2Camera(options: Recording.options(), driver: driver)
        XCTAssertEqual(camera.format?.fourcc, .yuyv)
        XCTAssertEqual(camera.format?.bytesPerLine, 16)
    }

    func testMJPEGOnlyCameraUsesMJPEG() throws {
        let driver = RecordedV4L2Driver(offering: [.mjpeg])
        let camera = try V4L2Camera(options: Recording.options(), driver: driver)
        XCTAssertEqual(camera.format?.fourcc, .mjpeg)
    }

    func testCandidateOrder() throws {
        let offered = [FourCC.jpeg, .mjpeg, FourCC("RGB3")!, .yuyv, .grey].map { V4L2FormatDescription(fourcc: $0) }
        let candidates = try V4L2FormatChoice.candidates(offered: offered, frameSizes: [:], requested: nil, device: "d")
        XCTAssertEqual(candidates.map(\.fourcc), [.grey, .yuyv, .mjpeg, .jpeg])
        XCTAssertEqual(candidates.map(\.size), Array(repeating: V4L2FormatChoice.defaultSize, count: 4))
    }

    func testRequestedSizeOfferedOnlyInMJPEGBeatsYUYV() throws {
        // A USB 2 webcam: YUYV up to 640x480, MJPEG up to 1280x720.
        let driver = RecordedV4L2Driver(offering: [.yuyv, .mjpeg])
        let small = [V4L2FrameSize.discrete(CaptureSize(width: 320, height: 240)), .discrete(CaptureSize(width: 640, height: 480))]
        driver.frameSizes = [.yuyv: small, .mjpeg: small + [.discrete(CaptureSize(width: 1280, height: 720))]]
        let camera = try V4L2Camera(options: Recording.options(size: CaptureSize(width: 1280, height: 720)), driver: driver)
        XCTAssertEqual(camera.format?.fourcc, .mjpeg)
        XCTAssertEqual(camera.format?.size, CaptureSize(width: 1280, height: 720))

        // Without --size the format preference decides, at the nearest size that format offers.
        let other = RecordedV4L2Driver(offering: [.yuyv, .mjpeg])
        other.frameSizes = driver.frameSizes
        let preferred = try V4L2Camera(options: Recording.options(size: nil), driver: other)
        XCTAssertEqual(preferred.format?.fourcc, .yuyv)
        XCTAssertEqual(preferred.format?.size, CaptureSize(width: 640, height: 480))
    }

    func testSizeNotOfferedTakesSmallestCoveringElseLargest() {
        let sizes: [V4L2FrameSize] = [
            .discrete(CaptureSize(width: 640, height: 480)), .discrete(CaptureSize(width: 1920, height: 1080)),
            .discrete(CaptureSize(width: 1280, height: 720)),
        ]
        let covering = V4L2FormatChoice.bestSize(sizes, for: CaptureSize(width: 800, height: 600))
        XCTAssertEqual(covering.0, CaptureSize(width: 1280, height: 720))
        XCTAssertFalse(covering.exact)
        let largest = V4L2FormatChoice.bestSize(sizes, for: CaptureSize(width: 4000, height: 3000))
        XCTAssertEqual(largest.0, CaptureSize(width: 1920, height: 1080))
        let stepwise = V4L2FrameSize.stepwise(
            min: CaptureSize(width: 16, height: 16), max: CaptureSize(width: 640, height: 480), step: CaptureSize(width: 16, height: 8))
        XCTAssertTrue(stepwise.contains(CaptureSize(width: 320, height: 240)))
        XCTAssertFalse(stepwise.contains(CaptureSize(width: 321, height: 240)))
        XCTAssertEqual(V4L2FormatChoice.bestSize([stepwise], for: CaptureSize(width: 321, height: 2000)).0, CaptureSize(width: 336, height: 480))
    }

    func testUnusableAnswerFromSetFormatMovesToNextCandidate() throws {
        let driver = RecordedV4L2Driver(offering: [.grey, .yuyv])
        driver.setFormatAnswer = { asked in
            var answer = driver.defaultAnswer(asked)
            if asked.fourcc == .grey { answer.fourcc = FourCC("RGB3")! }  // the driver swapped in a format we cannot read
            return answer
        }
        let camera = try V4L2Camera(options: Recording.options(), driver: driver)
        XCTAssertEqual(camera.format?.fourcc, .yuyv)
        XCTAssertEqual(driver.count(.setFormat), 2)
    }

    func testSetFormatEINVALMovesToNextCandidate() throws {
        let driver = RecordedV4L2Driver(offering: [.grey, .mjpeg])
        driver.fail(.setFormat, with: EINVAL, onCall: 1)
        let camera = try V4L2Camera(options: Recording.options(), driver: driver)
        XCTAssertEqual(camera.format?.fourcc, .mjpeg)
    }

    func testDriverSizeIsAcceptedWhenItDiffers() throws {
        let driver = RecordedV4L2Driver(offering: [.grey])
        driver.setFormatAnswer = { asked in
            driver.defaultAnswer(V4L2PixelFormat(fourcc: asked.fourcc, width: 640, height: 480))
        }
        let camera = try V4L2Camera(options: Recording.options(size: CaptureSize(width: 1920, height: 1080)), driver: driver)
        XCTAssertEqual(camera.format?.size, CaptureSize(width: 640, height: 480))
    }

    func testNothingUsableListsEveryOfferedFourCC() {
        let driver = RecordedV4L2Driver(offering: [FourCC("H264")!, FourCC("RGB3")!])
        XCTAssertEqual(Recording.openError(driver), .noUsableFormat(Recording.device, offered: ["H264", "RGB3"]))
        XCTAssertEqual(driver.count(.setFormat), 0)
        assertReleased(driver)
    }

    func testNoFormatsAtAll() {
        let driver = RecordedV4L2Driver(offering: [])
        XCTAssertEqual(Recording.openError(driver), .noUsableFormat(Recording.device, offered: []))
        assertReleased(driver)
    }

    func testEveryAnswerUnusableIsNoUsableFormat() {
        let driver = RecordedV4L2Driver(offering: [.yuyv, .mjpeg])
        driver.setFormatAnswer = { asked in V4L2PixelFormat(fourcc: FourCC("H264")!, width: asked.width, height: asked.height) }
        XCTAssertEqual(Recording.openError(driver), .noUsableFormat(Recording.device, offered: ["YUYV", "MJPG"]))
        XCTAssertEqual(driver.count(.setFormat), 2)
        assertReleased(driver)
    }

    func testAcceptFillsInAndRejects() {
        XCTAssertEqual(V4L2FormatChoice.accept(V4L2PixelFormat(fourcc: .yuyv, width: 10, height: 2))?.bytesPerLine, 20)
        XCTAssertEqual(V4L2FormatChoice.accept(V4L2PixelFormat(fourcc: .yuyv, width: 10, height: 2))?.sizeImage, 40)
        XCTAssertNil(V4L2FormatChoice.accept(V4L2PixelFormat(fourcc: .yuyv, width: 10, height: 2, bytesPerLine: 12)))
        XCTAssertNil(V4L2FormatChoice.accept(V4L2PixelFormat(fourcc: .grey, width: 0, height: 2)))
        XCTAssertNotNil(V4L2FormatChoice.accept(V4L2PixelFormat(fourcc: .mjpeg, width: 10, height: 2)))
    }

    func testFourCCAndSize() {
        XCTAssertEqual(FourCC.grey.description, "GREY")
        XCTAssertEqual(FourCC.yuyv.description, "YUYV")
        XCTAssertEqual(FourCC.mjpeg.description, "MJPG")
        XCTAssertEqual(FourCC.jpeg.description, "JPEG")
        XCTAssertEqual(FourCC("YUYV"), .yuyv)
        XCTAssertEqual(FourCC("Y16 ")?.description, "Y16")
        XCTAssertNil(FourCC("YUV"))
        XCTAssertEqual(CaptureSize(parsing: "1280x720"), CaptureSize(width: 1280, height: 720))
        XCTAssertEqual(CaptureSize(parsing: "640X480"), CaptureSize(width: 640, height: 480))
        XCTAssertNil(CaptureSize(parsing: "1280"))
        XCTAssertNil(CaptureSize(parsing: "0x720"))
        XCTAssertNil(CaptureSize(parsing: "12x34x5"))
    }
}
