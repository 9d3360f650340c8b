import Foundation
import VitalSnapImaging

/// The images of a folder (those with an extension of `ImageFormat.fileExtensions`, in name order) replayed
/// as a frame sequence.
public final class ImageFolderSource: FrameSource {
    public let name: String
    public private(set) var droppedFrames = 0
    /// Files skipped because they could not be decoded, with why: a replay goes on past one bad frame.
    public private(set) var unreadableFrames: [String] = []
    private let files: [String]
    private var clock: ReplayClock
    private var next = 0
    private var stopped = false

    public init(folder: String, framesPerSecond: Double?) throws(CaptureError) {
        name = folder
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw .unreadableInput(folder, reason: "no such folder")
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw .unreadableInput(folder, reason: "the folder cannot be listed")
        }
        files = names.filter { name in
            !name.hasPrefix(".") && ImageFormat.hasImageExtension(name)
        }.sorted().map { folder + "/" + $0 }
        guard !files.isEmpty else { throw .unreadableInput(folder, reason: "no images (\(ImageFormat.fileExtensionList)) in it") }
        clock = ReplayClock(framesPerSecond: framesPerSecond)
    }

    public var frameCount: Int { files.count }

    public func nextFrame() throws(CaptureError) -> Frame? {
        while !stopped, next < files.count {
            let index = clock.index(after: next)
            guard index < files.count else {
                // The replay's time ran out while the reader was busy: the rest were dropped.
                droppedFrames += files.count - next
                next = files.count
                break
            }
            droppedFrames += index - next
            next = index + 1
            do {
                let image = try ImageDecoder.decode(contentsOf: files[index]).image
                return Frame(image: image, timestamp: clock.timestamp(of: index), sequence: index + 1)
            } catch {
                unreadableFrames.append("\(files[index]): \(error)")
            }
        }
        return nil
    }

    public func stop() { stopped = true }
}
