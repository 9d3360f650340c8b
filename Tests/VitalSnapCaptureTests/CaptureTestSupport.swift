import VitalSnapCapture
import VitalSnapImaging
import XCTest

/// Small frames and a camera opened on a recorded session.
enum Recording {
    static let device = "/dev/video0"

    /// A recognisable gray pattern: a diagonal gradient.
    static func pattern(width: Int, height: Int, seed: Int = 0) -> GrayImage {
        var image = GrayImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { image[x, y] = UInt8(truncatingIfNeeded: seed &* 37 &+ x &* 16 &+ y &* 9) }
        }
        return image
    }

    /// GREY bytes with `stride` bytes per row (padding filled with 0xAB so that reading it shows).
    static func greyBytes(_ image: GrayImage, stride: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0xAB, count: stride * image.height)
        for y in 0..<image.height {
            for x in 0..<image.width { bytes[y * stride + x] = image[x, y] }
        }
        return bytes
    }

    /// YUYV bytes whose luma is `image`, with chroma bytes that differ from every luma value nearby.
    static func yuyvBytes(_ image: GrayImage, stride: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0xAB, count: stride * image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                bytes[y * stride + 2 * x] = image[x, y]
                bytes[y * stride + 2 * x + 1] = x % 2 == 0 ? 0x11 : 0xEE  // U, V
            }
        }
        return bytes
    }

    static func frame(_ bytes: [UInt8], sequence: UInt32, timestamp: Double = 0) -> RecordedV4L2Driver.RecordedFrame {
        .init(bytes: bytes, sequence: sequence, timestamp: timestamp)
    }

    /// A GREY camera of `width`x`height` whose frames carry the given driver sequence numbers, one frame per wait,
    /// each frame a pattern seeded by its sequence number.
    static func greyCamera(width: Int = 8, height: Int = 4, sequences: [UInt32]) -> RecordedV4L2Driver {
        let arrivals = sequences.map { sequence in
            [frame(greyBytes(pattern(width: width, height: height, seed: Int(sequence)), stride: width),
                   sequence: sequence, timestamp: 100 + Double(sequence) / 30)]
        }
        return RecordedV4L2Driver(offering: [.grey], arrivals: arrivals)
    }

    static func options(size: CaptureSize? = CaptureSize(width: 8, height: 4), buffers: Int = 4) -> V4L2CameraOptions {
        V4L2CameraOptions(device: device, size: size, bufferCount: buffers, frameTimeout: 0.5, pollSliceMilliseconds: 100)
    }

    /// The error opening the camera fails with (nil if it opened).
    static func openError(_ driver: RecordedV4L2Driver, options: V4L2CameraOptions = options()) -> CaptureError? {
        do {
            let camera = try V4L2Camera(options: options, driver: driver)
            camera.stop()
            return nil
        } catch {
            return error
        }
    }
}

/// Whatever happened, nothing may be left: every mapping unmapped, the device closed exactly once, no rule broken.
func assertReleased(_ driver: RecordedV4L2Driver, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(driver.liveMappings, 0, "buffers still mapped", file: file, line: line)
    XCTAssertFalse(driver.isOpen, "device still open", file: file, line: line)
    XCTAssertEqual(driver.count(.close), driver.successfulOpens, "close count", file: file, line: line)
    XCTAssertEqual(driver.violations, [], file: file, line: line)
}
