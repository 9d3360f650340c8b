import Foundation
import VitalSnapCapture
import VitalSnapImaging
import XCTest

final class ReplaySourceTests: XCTestCase {
    private func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vitalsnap-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// A small grey image whose pixels say which frame it is.
    private func image(_ n: Int, width: Int = 24, height: Int = 16) -> GrayImage {
        var image = GrayImage(width: width, height: height)
        for y in 0..<height { for x in 0..<width { image[x, y] = UInt8((n * 60 + x * 3 + y) & 0xFF) } }
        return image
    }

    private func frames(_ source: FrameSource) throws -> [Frame] {
        var out: [Frame] = []
        while let frame = try source.nextFrame() { out.append(frame) }
        return out
    }

    func testAnImageFolderReplaysInNameOrderAndSkipsAnUnreadableFrame() throws {
        let folder = try temporaryFolder()
        for n in [2, 1, 3] {
            try Data(try ImageEncoder.png(image(n))).write(to: folder.appendingPathComponent("frame-\(n).png"))
        }
        try Data("not an image".utf8).write(to: folder.appendingPathComponent("frame-25.png"))
        try Data("ignored".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let source = try ImageFolderSource(folder: folder.path, framesPerSecond: 0)
        let got = try frames(source)
        XCTAssertEqual(got.map(\.image), [image(1), image(2), image(3)])
        // Sequence numbers count the files by name (frame-25 sorts before frame-3), so the bad one leaves a gap.
        XCTAssertEqual(got.map(\.sequence), [1, 2, 4])
        XCTAssertEqual(source.unreadableFrames.count, 1)
        XCTAssertTrue(source.unreadableFrames[0].contains("frame-25.png"))
    }

    func testAFolderWithoutImagesIsAnError() throws {
        let folder = try temporaryFolder()
        XCTAssertThrowsError(try ImageFolderSource(folder: folder.path, framesPerSecond: nil)) { error in
            guard case .unreadableInput = error as? CaptureError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try ImageFolderSource(folder: folder.path + "/missing", framesPerSecond: nil))
    }

    func testAPacedReplayDropsTheFramesASlowReaderMisses() throws {
        let folder = try temporaryFolder()
        for n in 1...30 { try Data(try ImageEncoder.png(image(n, width: 8, height: 8))).write(to: folder.appendingPathComponent(String(format: "f%02d.png", n))) }
        let paced = try ImageFolderSource(folder: folder.path, framesPerSecond: 200)
        var handed: [Int] = []
        while let frame = try paced.nextFrame() {
            handed.append(frame.sequence)
            Thread.sleep(forTimeInterval: 0.02)  // 4 frame periods per frame
        }
        XCTAssertGreaterThan(paced.droppedFrames, 10)
        XCTAssertEqual(handed.count + paced.droppedFrames, 30)
        XCTAssertEqual(handed, handed.sorted())
        let unpaced = try ImageFolderSource(folder: folder.path, framesPerSecond: 0)
        XCTAssertEqual(try frames(unpaced).count, 30)
        XCTAssertEqual(unpaced.droppedFrames, 0)
    }

    func testAnMJPEGStreamIsSplitIntoItsFrames() throws {
        let folder = try temporaryFolder()
        var stream = Data([0x00, 0x13, 0x37])  // leading bytes that are no JPEG
        for n in 1...3 { stream.append(Data(try ImageEncoder.jpeg(image(n), quality: 95))) }
        let file = folder.appendingPathComponent("clip.mjpeg")
        try stream.write(to: file)
        let got = try frames(try MJPEGStreamSource(file: file.path, framesPerSecond: 0))
        XCTAssertEqual(got.count, 3)
        for (n, frame) in zip(1..., got) {
            XCTAssertEqual(frame.image.width, 24)
            // JPEG is lossy: close to the frame it was made from, far from the others.
            let error = zip(frame.image.pixels, image(n).pixels).map { abs(Int($0) - Int($1)) }.max()!
            XCTAssertLessThan(error, 12, "frame \(n)")
        }
    }

    func testAnMJPEGStreamCutInsideAFrameIsAnError() throws {
        let folder = try temporaryFolder()
        var stream = Data(try ImageEncoder.jpeg(image(1)))
        let second = Data(try ImageEncoder.jpeg(image(2)))
        stream.append(second.prefix(second.count / 2))
        let file = folder.appendingPathComponent("cut.mjpeg")
        try stream.write(to: file)
        let source = try MJPEGStreamSource(file: file.path, framesPerSecond: 0)
        XCTAssertNotNil(try source.nextFrame())
        XCTAssertThrowsError(try source.nextFrame()) { error in
            XCTAssertTrue("\(error)".contains("ends inside a JPEG"), "\(error)")
        }
    }

    func testAY4MFileGivesItsLumaPlanes() throws {
        let folder = try temporaryFolder()
        let (w, h) = (7, 5)  // odd sizes: chroma planes round up
        var data = Data("YUV4MPEG2 W\(w) H\(h) F25:1 Ip A1:1 C420jpeg\n".utf8)
        for n in 1...2 {
            data.append(Data("FRAME\n".utf8))
            data.append(Data(image(n, width: w, height: h).pixels))
            data.append(Data(repeating: 128, count: 2 * 4 * 3))
        }
        let file = folder.appendingPathComponent("clip.y4m")
        try data.write(to: file)
        let source = try Y4MSource(file: file.path, framesPerSecond: 0)
        XCTAssertEqual(source.declaredFramesPerSecond, 25)
        XCTAssertEqual(try frames(source).map(\.image), [image(1, width: w, height: h), image(2, width: w, height: h)])
    }

    func testAY4MWithABadHeaderIsAnError() throws {
        let folder = try temporaryFolder()
        let file = folder.appendingPathComponent("bad.y4m")
        try Data("YUV4MPEG2 W0 H10\n".utf8).write(to: file)
        XCTAssertThrowsError(try Y4MSource(file: file.path, framesPerSecond: nil)) { error in
            XCTAssertTrue("\(error)".contains("unusable size"), "\(error)")
        }
        try Data("RIFF....".utf8).write(to: file)
        XCTAssertThrowsError(try Y4MSource(file: file.path, framesPerSecond: nil))
    }
}
