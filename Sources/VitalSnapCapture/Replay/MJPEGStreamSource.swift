import Foundation
import VitalSnapImaging

/// A Motion-JPEG stream file (JPEG images back to back, as cameras and `ffmpeg -f mjpeg` write them) replayed as
/// frames. The file is read in chunks and each JPEG is found by walking its marker segments, so a JPEG that
/// embeds a thumbnail (with its own start and end markers) is not split in two.
public final class MJPEGStreamSource: FrameSource {
    public let name: String
    public private(set) var droppedFrames = 0
    public private(set) var unreadableFrames: [String] = []
    private let handle: FileHandle
    private var buffer = Data()
    private var atEnd = false
    private var clock: ReplayClock
    private var next = 0
    private var stopped = false

    /// Frames larger than this are refused (a corrupt length would otherwise read the whole file).
    static let maximumFrameBytes = 32 << 20

    public init(file: String, framesPerSecond: Double?) throws(CaptureError) {
        name = file
        guard let handle = FileHandle(forReadingAtPath: file) else { throw .unreadableInput(file, reason: "cannot open the file") }
        self.handle = handle
        clock = ReplayClock(framesPerSecond: framesPerSecond)
    }

    deinit { try? handle.close() }

    public func nextFrame() throws(CaptureError) -> Frame? {
        while !stopped {
            guard let jpeg = try nextJPEG() else {
                if next == 0 { throw .unreadableInput(name, reason: "no JPEG frames in it") }
                return nil
            }
            let index = next
            next += 1
            if clock.isLate(index) {
                droppedFrames += 1
                continue
            }
            do {
                let image = try ImageDecoder.decode(bytes: [UInt8](jpeg)).image
                return Frame(image: image, timestamp: clock.timestamp(of: index), sequence: index + 1)
            } catch {
                unreadableFrames.append("frame \(index + 1): \(error)")
            }
        }
        return nil
    }

    public func stop() { stopped = true }

    private func fill(_ count: Int) -> Bool {
        while buffer.count < count && !atEnd {
            let chunk = handle.readData(ofLength: 1 << 20)
            if chunk.isEmpty { atEnd = true } else { buffer.append(chunk) }
        }
        return buffer.count >= count
    }

    /// The bytes of the next JPEG, or nil at the end of the file (trailing bytes that are no JPEG are ignored).
    private func nextJPEG() throws(CaptureError) -> Data? {
        // Find the start of image.
        while true {
            guard fill(3) else { return nil }
            if let start = buffer.firstRange(of: Data([0xFF, 0xD8, 0xFF])) {
                buffer.removeSubrange(buffer.startIndex..<start.lowerBound)
                break
            }
            if atEnd { return nil }
            buffer.removeSubrange(buffer.startIndex..<(buffer.endIndex - 2))
            _ = fill(buffer.count + 1)
        }
        var position = 2
        // Marker segments up to the start of scan, then entropy-coded data up to the end of image.
        while true {
            guard fill(position + 2) else { throw .unreadableInput(name, reason: "the stream ends inside a JPEG") }
            var b = buffer.startIndex
            guard buffer[b + position] == 0xFF else { throw .unreadableInput(name, reason: "a JPEG frame is damaged (no marker where one belongs)") }
            let marker = buffer[b + position + 1]
            if marker == 0xFF { position += 1; continue }  // fill byte
            if marker == 0xD9 { break }
            guard fill(position + 4) else { throw .unreadableInput(name, reason: "the stream ends inside a JPEG") }
            b = buffer.startIndex
            let length = Int(buffer[b + position + 2]) << 8 | Int(buffer[b + position + 3])
            guard length >= 2 else { throw .unreadableInput(name, reason: "a JPEG frame is damaged (bad segment length)") }
            position += 2 + length
            if marker == 0xDA {
                // Scan data: ends at a marker that is neither a stuffed 0xFF00 nor a restart marker.
                while true {
                    guard fill(position + 2) else { throw .unreadableInput(name, reason: "the stream ends inside a JPEG") }
                    let b = buffer.startIndex
                    if buffer[b + position] == 0xFF {
                        let next = buffer[b + position + 1]
                        if next != 0x00 && !(0xD0...0xD7).contains(next) && next != 0xFF { break }
                    }
                    position += 1
                    if position > Self.maximumFrameBytes { throw .unreadableInput(name, reason: "a JPEG frame is larger than 32 MB") }
                }
            }
            if position > Self.maximumFrameBytes { throw .unreadableInput(name, reason: "a JPEG frame is larger than 32 MB") }
        }
        let end = buffer.startIndex + position + 2
        let jpeg = Data(buffer[buffer.startIndex..<end])
        buffer.removeSubrange(buffer.startIndex..<end)
        return jpeg
    }
}
