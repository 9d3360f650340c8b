import Foundation
import VitalSnapImaging

/// A YUV4MPEG2 file (`.y4m`, what `ffmpeg -f yuv4mpegpipe` writes) replayed as frames: the luma plane of each
/// frame is the grey image. Its own frame rate paces the replay unless another is asked for.
public final class Y4MSource: FrameSource {
    public let name: String
    public private(set) var droppedFrames = 0
    public let width: Int
    public let height: Int
    /// The rate the file declares (`F30000:1001`), nil when it declares none.
    public let declaredFramesPerSecond: Double?
    private let handle: FileHandle
    private let chromaBytes: Int
    private var clock: ReplayClock
    private var next = 0
    private var stopped = false

    static let maximumPixels = 64 << 20

    public init(file: String, framesPerSecond: Double?) throws(CaptureError) {
        name = file
        guard let handle = FileHandle(forReadingAtPath: file) else { throw .unreadableInput(file, reason: "cannot open the file") }
        self.handle = handle
        guard let header = Self.readLine(handle, limit: 1024), header.hasPrefix("YUV4MPEG2 ") else {
            throw .unreadableInput(file, reason: "not a YUV4MPEG2 file")
        }
        var w = 0, h = 0, fps: Double?, colour = "420jpeg"
        for token in header.split(separator: " ").dropFirst() {
            let value = token.dropFirst()
            switch token.first {
            case "W": w = Int(value) ?? 0
            case "H": h = Int(value) ?? 0
            case "F":
                let parts = value.split(separator: ":").compactMap { Double($0) }
                if parts.count == 2, parts[1] > 0, parts[0] > 0 { fps = parts[0] / parts[1] }
            case "C": colour = String(value)
            default: break
            }
        }
        guard w > 0, h > 0, w * h <= Self.maximumPixels else {
            throw .unreadableInput(file, reason: "the header declares an unusable size \(w)x\(h)")
        }
        let halfW = (w + 1) / 2, halfH = (h + 1) / 2
        switch colour {
        case let c where c.hasPrefix("420"): chromaBytes = 2 * halfW * halfH
        case let c where c.hasPrefix("422"): chromaBytes = 2 * halfW * h
        case let c where c.hasPrefix("444"): chromaBytes = 2 * w * h
        case let c where c.hasPrefix("mono"): chromaBytes = 0
        default: throw .unreadableInput(file, reason: "colour space \(colour) is not supported (420, 422, 444 or mono)")
        }
        width = w
        height = h
        declaredFramesPerSecond = fps
        clock = ReplayClock(framesPerSecond: framesPerSecond ?? fps)
    }

    deinit { try? handle.close() }

    public func nextFrame() throws(CaptureError) -> Frame? {
        while !stopped {
            guard let line = Self.readLine(handle, limit: 1024) else { return nil }
            guard line.hasPrefix("FRAME") else { throw .unreadableInput(name, reason: "frame \(next + 1) does not start with FRAME") }
            let luma = handle.readData(ofLength: width * height)
            let chroma = handle.readData(ofLength: chromaBytes)
            guard luma.count == width * height, chroma.count == chromaBytes else { return nil }  // a cut-off last frame
            let index = next
            next += 1
            if clock.isLate(index) {
                droppedFrames += 1
                continue
            }
            let image = GrayImage(width: width, height: height, pixels: [UInt8](luma))
            return Frame(image: image, timestamp: clock.timestamp(of: index), sequence: index + 1)
        }
        return nil
    }

    public func stop() { stopped = true }

    private static func readLine(_ handle: FileHandle, limit: Int) -> String? {
        var bytes: [UInt8] = []
        while bytes.count < limit {
            let byte = handle.readData(ofLength: 1)
            guard let b = byte.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if b == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(b)
        }
        return nil
    }
}
