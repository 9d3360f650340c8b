import VitalSnapImaging

/// What is shown at one moment, with a version per part so that each page sends only what changed.
struct ViewSnapshot: Sendable {
    struct Versions: Sendable, Equatable {
        var session = 0, frame = 0, converged = 0, notice = 0, finished = 0
    }
    var versions = Versions()
    var session: ViewSession?
    var frame: GrayImage?
    var frameState: ViewFrameState?
    var converged: ViewConverged?
    var notice: ViewNotice?
    var finished: ViewFinished?
}
