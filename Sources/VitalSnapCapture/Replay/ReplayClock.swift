import Foundation

/// Paces a replay like a camera: frame `i` is due `i / fps` seconds after the start. A consumer that is behind
/// gets the newest due frame and the ones it missed count as dropped; one that is ahead waits. With no frame
/// rate every frame is handed over as soon as it is asked for (tests, and reading a clip as fast as possible).
struct ReplayClock {
    let framesPerSecond: Double?
    private var start: Date?

    init(framesPerSecond: Double?) {
        self.framesPerSecond = framesPerSecond.flatMap { $0 > 0 ? $0 : nil }
    }

    /// The index to hand over when `next` is the first one not yet handed over (both from 0); waits until it is due.
    mutating func index(after next: Int) -> Int {
        guard let fps = framesPerSecond else { return next }
        let now = Date()
        guard let start else {
            self.start = now
            return next
        }
        let due = Int((now.timeIntervalSince(start) * fps).rounded(.down))
        if due >= next { return due }
        Thread.sleep(forTimeInterval: Double(next) / fps - now.timeIntervalSince(start))
        return next
    }

    /// For sources that come upon their frames one after another (a stream): waits until frame `index` is due,
    /// and says whether a later frame is already due, so that this one is to be dropped.
    mutating func isLate(_ index: Int) -> Bool {
        self.index(after: index) > index
    }

    /// The timestamp of frame `index`: its place on the replayed clock.
    func timestamp(of index: Int) -> Double {
        Double(index) / (framesPerSecond ?? 10)
    }
}
