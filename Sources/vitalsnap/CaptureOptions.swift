import ArgumentParser
import Foundation
import VitalSnapCapture

/// Where the live reading's frames come from: a V4L2 camera, or a replayed folder or video file.
struct CaptureOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Camera device.", valueName: "path")) var device = "/dev/video0"
    @Option(help: ArgumentHelp("Camera frame size, e.g. 1280x720 (default: the camera's nearest to 1280x720).", valueName: "WxH"))
    var size: String?
    @Option(help: ArgumentHelp(
        "Replay instead of a camera: a folder of images (by name), an MJPEG stream (.mjpeg, .mjpg) or a YUV4MPEG2 file (.y4m).",
        valueName: "path"))
    var input: String?
    @Option(help: ArgumentHelp(
        "Frames per second of a replay (default 10; a .y4m file's own rate); 0 reads every frame as fast as it can.",
        valueName: "n"))
    var fps: Double?

    mutating func validate() throws {
        if size != nil && input != nil { throw ValidationError("--size is for cameras; a replay has its own size") }
        if let size, CaptureSize(parsing: size) == nil { throw ValidationError("--size \(size) is not WxH, e.g. 1280x720") }
        if let fps, fps < 0 || !fps.isFinite { throw ValidationError("--fps must be 0 or more") }
    }

    /// The camera or replay; `stopRequest` ends a camera's blocked wait for a frame (Ctrl-C).
    func openSource(stopRequest: CaptureStopRequest) throws(CaptureError) -> FrameSource {
        if let input {
            // 0 means unpaced: the replay clock treats a rate of 0 as none.
            let rate = fps ?? 10
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: input, isDirectory: &isFolder), isFolder.boolValue {
                return try ImageFolderSource(folder: input, framesPerSecond: rate)
            }
            guard FileManager.default.fileExists(atPath: input) else { throw .unreadableInput(input, reason: "no such file or folder") }
            switch (input as NSString).pathExtension.lowercased() {
            case "y4m": return try Y4MSource(file: input, framesPerSecond: fps)
            case "mjpeg", "mjpg": return try MJPEGStreamSource(file: input, framesPerSecond: rate)
            default: throw .unreadableInput(input, reason: "not a folder, .mjpeg/.mjpg or .y4m file")
            }
        }
        return try V4L2Camera(options: V4L2CameraOptions(device: device, size: size.flatMap(CaptureSize.init(parsing:))), stopRequest: stopRequest)
    }
}
