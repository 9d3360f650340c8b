import VitalSnapCapture
import XCTest

/// Through the real libv4l2. This machine has no V4L2 and no camera, so only the failures to open run.
final class RealDriverTests: XCTestCase {
    func testMissingDeviceIsNoSuchDevice() {
        let path = "/dev/video-does-not-exist"
        XCTAssertThrowsError(try V4L2Camera(options: V4L2CameraOptions(device: path))) { error in
            XCTAssertEqual(error as? CaptureError, .noSuchDevice(path))
        }
        XCTAssertThrowsError(try V4L2Camera(path: path, width: 640, height: 480)) { error in
            XCTAssertEqual(error as? CaptureError, .noSuchDevice(path))
        }
    }

    func testAFileThatIsNotAV4L2DeviceIsNotACaptureDevice() {
        // libv4l2 queries the capabilities inside open; /dev/null answers ENOTTY (libv4l2 logs a line to stderr).
        XCTAssertThrowsError(try V4L2Camera(options: V4L2CameraOptions(device: "/dev/null"))) { error in
            XCTAssertEqual(error as? CaptureError, .notACaptureDevice("/dev/null", reason: "not a V4L2 device"))
        }
    }

    func testRealDriverErrnoForMissingPath() {
        XCTAssertThrowsError(try LibV4L2Driver().open("/dev/video-does-not-exist")) { error in
            XCTAssertEqual(error as? V4L2Errno, .noEntry)
        }
    }
}
