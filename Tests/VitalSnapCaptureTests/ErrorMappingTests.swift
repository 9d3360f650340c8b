import VitalSnapCapture
import XCTest

#if canImport(Glibc)
import Glibc
#endif

final class ErrorMappingTests: XCTestCase {
    private let device = Recording.device

    /// Opening with `operation` failing with `code` gives `expected`, and leaves nothing open or mapped.
    private func assertOpen(
        failing operation: V4L2Operation, with code: Int32, onCall call: Int = 1, gives expected: CaptureError,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let driver = Recording.greyCamera(sequences: [])
        driver.fail(operation, with: code, onCall: call)
        XCTAssertEqual(Recording.openError(driver), expected, "\(operation.rawValue) \(V4L2Errno(code))", file: file, line: line)
        assertReleased(driver, file: file, line: line)
    }

    func testOpenErrors() {
        for code in [ENOENT, ENODEV, ENXIO] { assertOpen(failing: .open, with: code, gives: .noSuchDevice(device)) }
        for code in [EACCES, EPERM] { assertOpen(failing: .open, with: code, gives: .permissionDenied(device)) }
        assertOpen(failing: .open, with: EBUSY, gives: .deviceBusy(device))
        // libv4l2 queries the capabilities inside open: a file that is not a V4L2 device fails there.
        assertOpen(failing: .open, with: ENOTTY, gives: .notACaptureDevice(device, reason: "not a V4L2 device"))
    }

    func testQueryCapabilitiesErrors() {
        assertOpen(failing: .queryCapabilities, with: EINVAL, gives: .notACaptureDevice(device, reason: "not a V4L2 device"))
        assertOpen(failing: .queryCapabilities, with: ENOTTY, gives: .notACaptureDevice(device, reason: "not a V4L2 device"))
        assertOpen(failing: .queryCapabilities, with: ENODEV, gives: .noSuchDevice(device))
    }

    func testDeviceBusyAtEachStep() {
        for operation in [V4L2Operation.setFormat, .requestBuffers, .streamOn] {
            assertOpen(failing: operation, with: EBUSY, gives: .deviceBusy(device))
        }
    }

    func testPermissionDeniedLater() {
        assertOpen(failing: .map, with: EACCES, onCall: 2, gives: .permissionDenied(device))
    }

    private func assertNotCapture(_ node: V4L2Capabilities.Flags, reasonContains text: String, file: StaticString = #filePath, line: UInt = #line) {
        let driver = Recording.greyCamera(sequences: [])
        driver.capabilities = V4L2Capabilities(
            driver: "uvcvideo", card: "Recorded Camera", capabilities: [.videoCapture, .streaming, .metadataCapture, .deviceCaps],
            deviceCaps: node)
        guard case .notACaptureDevice(let path, let reason) = Recording.openError(driver) else {
            return XCTFail("expected notACaptureDevice", file: file, line: line)
        }
        XCTAssertEqual(path, device, file: file, line: line)
        XCTAssertTrue(reason.contains(text), reason, file: file, line: line)
        XCTAssertEqual(driver.count(.setFormat), 0, file: file, line: line)
        assertReleased(driver, file: file, line: line)
    }

    func testCapabilitiesWithoutCaptureOrStreaming() {
        assertNotCapture([.metadataCapture, .streaming], reasonContains: "metadata node")
        assertNotCapture([.videoOutput, .streaming], reasonContains: "output")
        assertNotCapture([.videoCaptureMultiplanar, .streaming], reasonContains: "multi-planar")
        assertNotCapture([.videoCapture, .readWrite], reasonContains: "no streaming")
        assertNotCapture([], reasonContains: "no video capture")
    }

    func testWholeDeviceCapabilitiesWhenNoDeviceCaps() throws {
        let driver = Recording.greyCamera(sequences: [])
        driver.capabilities = V4L2Capabilities(driver: "old", card: "Old Camera", capabilities: [.videoCapture, .streaming])
        _ = try V4L2Camera(options: Recording.options(), driver: driver)
        driver.capabilities = V4L2Capabilities(driver: "old", card: "Old Camera", capabilities: [.videoCapture, .readWrite])
        let other = Recording.greyCamera(sequences: [])
        other.capabilities = driver.capabilities
        XCTAssertEqual(Recording.openError(other), .notACaptureDevice(device, reason: "Old Camera: no streaming I/O (read() only)"))
    }

    func testOtherSetupFailures() {
        assertOpen(
            failing: .requestBuffers, with: EINVAL,
            gives: .notACaptureDevice(device, reason: "it does not support memory-mapped streaming"))
        assertOpen(failing: .map, with: ENOMEM, onCall: 3, gives: .streamFailed(device, reason: "mmap failed: \(V4L2Errno(ENOMEM))"))
        assertOpen(failing: .queueBuffer, with: EIO, onCall: 2, gives: .streamFailed(device, reason: "VIDIOC_QBUF failed: \(V4L2Errno(EIO))"))
        guard case .streamFailed(_, let reason) = { () -> CaptureError? in
            let driver = Recording.greyCamera(sequences: [])
            driver.fail(.streamOn, with: ENOSPC)
            return Recording.openError(driver)
        }() else { return XCTFail("expected streamFailed") }
        XCTAssertTrue(reason.contains("USB bandwidth"), reason)
    }

    func testNoBuffersGranted() {
        let driver = Recording.greyCamera(sequences: [])
        driver.maximumBuffers = 0
        XCTAssertEqual(Recording.openError(driver), .streamFailed(device, reason: "the driver granted no capture buffers"))
        assertReleased(driver)
    }

    func testFailureHalfwayUnmapsWhatWasMapped() {
        let driver = Recording.greyCamera(sequences: [])
        driver.fail(.map, with: ENOMEM, onCall: 3)
        XCTAssertNotNil(Recording.openError(driver))
        XCTAssertEqual(driver.count(.map), 3)
        XCTAssertEqual(driver.count(.unmap), 2)
        XCTAssertEqual(driver.count(.streamOff), 0)
        assertReleased(driver)
    }

    func testUnpluggedWhileStreamingIsNoSuchDevice() throws {
        let driver = Recording.greyCamera(sequences: [0, 1, 2])
        driver.fail(.dequeueBuffer, with: ENODEV, onCall: 3)
        let camera = try V4L2Camera(options: Recording.options(), driver: driver)
        XCTAssertNotNil(try camera.nextFrame())
        XCTAssertThrowsError(try camera.nextFrame()) { XCTAssertEqual($0 as? CaptureError, .noSuchDevice(self.device)) }
        camera.stop()
        assertReleased(driver)
    }

    func testNoFrameBeforeTheTimeoutIsStreamFailed() throws {
        let driver = Recording.greyCamera(sequences: [])
        let camera = try V4L2Camera(options: Recording.options(), driver: driver)  // 0.5 s in 100 ms waits
        XCTAssertThrowsError(try camera.nextFrame()) {
            XCTAssertEqual($0 as? CaptureError, .streamFailed(self.device, reason: "no frame from the camera for 0.5 s"))
        }
        XCTAssertEqual(driver.count(.dequeueBuffer), 5)
    }

    func testErrnoText() {
        XCTAssertTrue(V4L2Errno(EBUSY).description.hasSuffix("(EBUSY)"))
        XCTAssertEqual(V4L2ErrorMapping.captureError(V4L2Errno(EIO), during: .dequeueBuffer, device: "d"),
                       .streamFailed("d", reason: "VIDIOC_DQBUF failed: \(V4L2Errno(EIO))"))
    }
}
